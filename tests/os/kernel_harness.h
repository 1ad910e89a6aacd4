// tests/os/kernel_harness.h
//
// What the kernel tests share: kernel profiles read from the shipped presets
// (scenarios/presets/os/*.json; test_os cannot link the scenario loader, so
// the few fields are assigned here), and a small machine to run processes on.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "fake_device.h"
#include "models/disk/device_config.h"
#include "models/os/kernel.h"

namespace ckptsim::os::testing {

inline sim::Bytes parse_kb(const nlohmann::json& v) {
  const std::string s = v.get<std::string>();
  const sim::Bytes n = std::stoll(s);
  return s.find("MB") != std::string::npos ? n * sim::kMiB : n * sim::kKiB;
}

// hdd-7200-sata as DeviceConfig's defaults give it (they are its preset's), on 1 TiB.
inline disk::DeviceConfig hdd_7200_sata() {
  disk::DeviceConfig c;
  c.name = "hdd-7200-sata";
  c.capacity = sim::kTiB;
  return c;
}

// The behaviour switches and block-queue values of a shipped kernel preset.
inline OsConfig profile(const std::string& kernel) {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/scenarios/presets/os/" + kernel + ".json");
  REQUIRE(in.good());
  const nlohmann::json os = nlohmann::json::parse(in).at("os");
  OsConfig c;
  c.kernel = kernel;
  c.dirty_background_ratio = os.at("vm.dirty_background_ratio");
  c.dirty_ratio = os.at("vm.dirty_ratio");
  c.dirty_expire_centisecs = os.at("vm.dirty_expire_centisecs");
  c.dirty_writeback_centisecs = os.at("vm.dirty_writeback_centisecs");
  c.reserved_memory = parse_kb(os.at("reserved_memory"));
  c.dirtyable_anon = os.at("dirtyable_anon");
  c.dirty_balance_reserve = os.at("dirty_balance_reserve");
  c.throttle = sim::enum_from_name(kThrottleNames, os.at("throttle").get<std::string>()).value();
  c.writeback_chunk = sim::enum_from_name(kWritebackChunkNames, os.at("writeback_chunk").get<std::string>()).value();
  c.stable_pages = os.at("stable_pages");
  c.sync_file_range_mode =
      sim::enum_from_name(kSyncModeNames, os.at("sync_file_range_mode").get<std::string>()).value();
  c.block_layer = sim::enum_from_name(kBlockLayerNames, os.at("block_layer").get<std::string>()).value();
  c.scheduler = sim::enum_from_name(kSchedulerNames, os.at("scheduler").get<std::string>()).value();
  c.nr_requests = os.value("nr_requests", 0);  // absent: the kernel's default
  c.read_ahead_kb = parse_kb(os.at("read_ahead_kb"));
  c.max_sectors_kb = parse_kb(os.at("max_sectors_kb"));
  c.commit_interval = std::stoll(os.at("commit_interval").get<std::string>()) * sim::kSecond;  // "5s"
  c.writepages_holds_handle = os.at("writepages_holds_handle");
  c.writepages_scan = sim::enum_from_name(kWritepagesScanNames, os.at("writepages_scan").get<std::string>()).value();
  c.ordered_data = os.at("ordered_data");
  c.fsync_waits_committing = os.at("fsync_waits_committing");
  return c;
}

// The disk of the fsync tests: 4 queued commands of 2 ms each, a volatile
// cache, and a cache flush of 20 ms that is not queued (SATA).
inline FakeDeviceConfig sata_disk_with_cache() {
  return FakeDeviceConfig{.queue_depth = 4,
                          .queued_flush = false,
                          .volatile_cache = true,
                          .fixed = 2 * sim::kMillisecond,
                          .flush_time = 20 * sim::kMillisecond};
}

// A kernel over one fake device; `check()` is the page conservation check.
struct Machine {
  Machine(const OsConfig& c, Memory memory, FakeDeviceConfig device_config = {})
      : config(c), device(sim, device_config), kernel(sim, config, memory, device, nullptr, 1) {}
  ~Machine() { check(); }

  void check() {
    std::string why;
    CHECK_MESSAGE(kernel.check_accounting(&why), why);
  }
  // Runs `body` as a process and the simulator until it ends; returns its duration.
  sim::Duration run(std::function<sim::Task<>()> body, sim::Duration limit = 600 * sim::kSecond) {
    const sim::Time start = sim.now();
    sim::Time end = -1;
    sim.spawn([](std::function<sim::Task<>()> b, sim::Simulator& s, sim::Time& e) -> sim::Process {
      co_await b();
      e = s.now();
    }(std::move(body), sim, end));
    while (end < 0 && sim.now() - start < limit) sim.run_until(sim.now() + 10 * sim::kMillisecond);
    REQUIRE(end >= 0);
    return end - start;
  }

  sim::Simulator sim;
  OsConfig config;
  FakeDevice device;
  Kernel kernel;
};

}  // namespace ckptsim::os::testing
