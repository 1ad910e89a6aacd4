// tests/disk/test_hdd_destage.cpp
//
// The calibratable destage of the HDD write cache (hdd.h): command_setup,
// destage_window, destage_order, and write_cache off, each changing what it
// must. Exact orders and exact times where the mechanism allows them; bands
// with their reasons where the rotational phase decides.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "models/disk/fio.h"
#include "models/disk/hdd.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

constexpr sim::Duration kSetup = 300 * sim::kMicrosecond;

FioResult fio_on(const DeviceConfig& config, const FioJob& job) {
  sim::Simulator sim;
  Hdd hdd(sim, config, 1, "sda");
  return run_fio(sim, hdd, job);
}

FioJob qd1(bool write, bool random, std::int64_t count) {
  FioJob job;
  job.name = "qd1";
  job.write = write;
  job.random = random;
  job.count = count;
  return job;
}

sim::Duration total(const FioResult& r) {
  return std::accumulate(r.latencies.begin(), r.latencies.end(), sim::Duration{0});
}

// Eight 8 kB writes, far apart (no merges), in this arrival order.
const std::vector<std::int64_t> kSectors = {500'000'000, 200'000'000, 700'000'000, 100'000'000,
                                            800'000'000, 300'000'000, 600'000'000, 400'000'000};

// Submits kSectors at time 0 (all fit in the cache) and returns them in the
// order their extents leave the cache, watched every 10 us (a destage takes
// at least an 8 kB transfer, ~50 us).
std::vector<std::int64_t> destage_order(const DeviceConfig& config) {
  sim::Simulator sim;
  Hdd hdd(sim, config, 1, "sda");
  testing::Sink owner;
  std::vector<Command> writes(kSectors.size());
  for (std::size_t i = 0; i < writes.size(); ++i) {
    writes[i].op = Op::Write;
    writes[i].bytes = 8 * sim::kKiB;
    writes[i].sector = kSectors[i];
    writes[i].owner = &owner;
    hdd.submit(writes[i]);
  }
  std::vector<std::int64_t> order, dirty;
  std::vector<SectorRange> ranges;
  std::vector<std::int64_t> left = kSectors;
  while (!left.empty()) {
    REQUIRE(sim.now() < sim::kSecond);
    sim.run_until(sim.now() + 10 * sim::kMicrosecond);
    ranges.clear();
    hdd.volatile_ranges(ranges);
    dirty.clear();
    for (const SectorRange& r : ranges) dirty.push_back(r.sector);
    for (auto it = left.begin(); it != left.end();) {
      if (std::find(dirty.begin(), dirty.end(), *it) == dirty.end()) {
        order.push_back(*it);
        it = left.erase(it);
      } else {
        ++it;
      }
    }
  }
  return order;
}

DeviceConfig cached_drive() {
  DeviceConfig c = testing::preset("hdd-7200-sata");
  REQUIRE(c.hdd.write_cache);
  return c;
}

}  // namespace

TEST_CASE("command_setup adds exactly N x setup to N writes the cache takes at QD1") {
  DeviceConfig c = cached_drive();
  const FioResult base = fio_on(c, qd1(true, true, 50));  // 50 < 100 extents: every write is accepted
  c.hdd.command_setup = kSetup;
  const FioResult slow = fio_on(c, qd1(true, true, 50));
  REQUIRE(base.latencies.size() == 50);
  REQUIRE(slow.latencies.size() == 50);
  for (std::size_t i = 0; i < 50; ++i) CHECK(slow.latencies[i] - base.latencies[i] == kSetup);
  CHECK(total(slow) - total(base) == 50 * kSetup);
}

TEST_CASE("command_setup on media reads at QD1: +setup per command on average, hidden in a missed revolution") {
  DeviceConfig c = cached_drive();
  SUBCASE("random reads: the rotational wait stays uniform, so the mean grows by the setup") {
    // 3000 reads: the mean rotational wait's sampling error is 8.33 ms / sqrt(12 x 3000) ~ 0.045 ms per
    // run, so +-0.2 ms around +0.3 ms is > 3 sigma of the two runs' difference.
    const FioResult base = fio_on(c, qd1(false, true, 3000));
    c.hdd.command_setup = kSetup;
    const FioResult slow = fio_on(c, qd1(false, true, 3000));
    const double added_ms = (sim::to_millis(total(slow)) - sim::to_millis(total(base))) / 3000;
    MESSAGE("random QD1 reads, command_setup 0.3 ms: +", added_ms, " ms per read");
    CHECK(added_ms >= 0.1);
    CHECK(added_ms <= 0.5);
  }
  SUBCASE("sequential writes with the cache off: each already waits a revolution for the next sector") {
    // The next 8 kB passes under the head while t_cmd runs: the setup only eats into that wait.
    c.hdd.write_cache = false;
    const FioResult base = fio_on(c, qd1(true, false, 200));
    c.hdd.command_setup = kSetup;
    const FioResult slow = fio_on(c, qd1(true, false, 200));
    CHECK(std::llabs(total(slow) - total(base)) <= 200);  // 1 ns of rounding per command at most
    CHECK(sim::to_millis(total(base)) / 200 == doctest::Approx(60000.0 / 7200).epsilon(0.05));
  }
}

TEST_CASE("write_cache off: a write completes when it is on the platters, at QD1 random-write media time") {
  DeviceConfig c = cached_drive();
  const FioResult cached = fio_on(c, qd1(true, true, 50));
  // Accepted: t_cmd + 8 kB over a 300 MiB/s link, about 0.18 ms.
  for (const sim::Duration d : cached.latencies) CHECK(d < 200 * sim::kMicrosecond);
  c.hdd.write_cache = false;
  sim::Simulator sim;
  Hdd hdd(sim, c, 1, "sda");
  CHECK_FALSE(hdd.info().volatile_cache);
  const FioResult media = run_fio(sim, hdd, qd1(true, true, 2000));
  CHECK(hdd.dirty_bytes() == 0);
  // Each pays t_cmd + seek + the 1 ms write settle + rotation: at least settle + t_cmd; on
  // average the QD1 random read's 12.9 ms plus the settle.
  for (const sim::Duration d : media.latencies) CHECK(d >= c.hdd.command_overhead + c.hdd.write_settle);
  MESSAGE("cache off, random QD1 writes: ", media.lat_mean_ms, " ms");
  CHECK(media.lat_mean_ms >= 12.5);
  CHECK(media.lat_mean_ms <= 15.5);
}

TEST_CASE("destage_order: fifo destages in arrival order, lba in C-LOOK order from the head") {
  DeviceConfig c = cached_drive();
  c.hdd.destage_order = DestageOrder::Fifo;
  CHECK(destage_order(c) == kSectors);
  // The first write starts destaging as it arrives (the mechanism is idle); from its end the
  // head sweeps up (600M, 700M, 800M) and wraps to the lowest LBA.
  c.hdd.destage_order = DestageOrder::Lba;
  CHECK(destage_order(c) == std::vector<std::int64_t>{500'000'000, 600'000'000, 700'000'000, 800'000'000, 100'000'000,
                                                      200'000'000, 300'000'000, 400'000'000});
  // Positioning: neither of those (the shortest seek plus rotation from each end).
  c.hdd.destage_order = DestageOrder::Positioning;
  const auto sptf = destage_order(c);
  CHECK(sptf.front() == 500'000'000);
  CHECK(sptf != kSectors);
}

TEST_CASE("destage_window: 1 is FIFO whatever the order; a window as large as the cache changes nothing") {
  DeviceConfig c = cached_drive();
  const auto unbounded = destage_order(c);
  c.hdd.destage_window = 1;
  CHECK(destage_order(c) == kSectors);
  c.hdd.destage_order = DestageOrder::Lba;
  CHECK(destage_order(c) == kSectors);
  c.hdd.destage_order = DestageOrder::Positioning;
  c.hdd.destage_window = c.hdd.write_cache_extents;
  CHECK(destage_order(c) == unbounded);
  // A window of 3: only the oldest three still dirty are candidates.
  c.hdd.destage_window = 3;
  c.hdd.destage_order = DestageOrder::Lba;
  // From 500M's end: window {200M, 700M, 100M} -> 700M; then {200M, 100M, 800M} -> 800M; then wrap
  // {200M, 100M, 300M} -> 100M; {200M, 300M, 600M} -> 200M; {300M, 600M, 400M} -> 300M; 400M; 600M.
  CHECK(destage_order(c) == std::vector<std::int64_t>{500'000'000, 700'000'000, 800'000'000, 100'000'000, 200'000'000,
                                                      300'000'000, 400'000'000, 600'000'000});
}
