// cli/commands/devbench.cpp
//
// The device is loaded as a scenario's is (preset, --preset-file fragments,
// --set values), so a grid or a typo is refused as `run` refuses it. Each
// job gets a fresh rig (cli/host/device_rig.h: simulator, device and block
// queue), so jobs do not inherit each other's cache or queue state; each
// fio-like job runs 3 simulated seconds after a 0.5 s ramp. Then the drain jobs (models/os/drain_bench.h):
// a writeback sweep of 8 kB pages at 1 %, 3 %, 14 % and 50 % of a 2 GB span,
// ascending and in a random order, each until its cache flush. Output: two
// tables, or with --json
// {"preset": ..., "jobs": [{"name", "iops", "mb_per_s", "lat_ms": {"p50", "p99"}, "max_in_flight"}, ...],
//  "drain": [{"density_pct", "ascending_writes_per_s", "random_writes_per_s"}, ...]}.
#include "cli/commands/devbench.h"

#include <iostream>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands/commands.h"
#include "cli/folder/printable.h"
#include "cli/host/device_rig.h"
#include "models/os/direct_io_bench.h"
#include "models/os/drain_bench.h"
#include "scenarios/scenario.h"
#include "scenarios/units.h"

namespace ckptsim::cli {

std::vector<os::DirectJob> devbench_jobs() {
  return {
      {.name = "randread-qd1", .write = false, .random = true, .iodepth = 1},
      {.name = "randread-qd32", .write = false, .random = true, .iodepth = 32},
      {.name = "randwrite-qd1", .write = true, .random = true, .iodepth = 1},
      {.name = "randwrite-qd32", .write = true, .random = true, .iodepth = 32},
      {.name = "seqread-qd1", .write = false, .random = false, .iodepth = 1, .batch = 1},
      {.name = "seqwrite-qd1", .write = true, .random = false, .iodepth = 1, .batch = 1},
      {.name = "seqread-stream", .write = false, .random = false, .iodepth = 1, .batch = 64},
  };
}

namespace {

// One dirty page in every `stride` blocks: 1 %, 3 %, 14 %, 50 %.
const std::vector<std::int64_t> kDrainStrides = {100, 33, 7, 2};

// What devbench measured, in table order.
struct Measured {
  std::vector<os::DirectJobResult> jobs;
  std::vector<std::pair<os::DrainResult, os::DrainResult>> drains;  // per stride: ascending, random
  std::string scheduler;
};

// The device as a scenario describes it; nullopt after printing why not (exit code 2).
std::optional<scenarios::Scenario> device_scenario(const DevbenchArgs& args) {
  try {
    nlohmann::json doc = nlohmann::json::object();
    if (!args.preset.empty()) doc["hardware"] = {{"device", args.preset}};
    const scenarios::LoadOptions options{.sets = args.sets,
                                         .preset_files = {args.preset_files.begin(), args.preset_files.end()}};
    const scenarios::Plan plan = scenarios::load_plan(scenarios::json(doc), options);
    if (plan.is_grid()) throw std::runtime_error("devbench measures one device; a grid is not accepted");
    return plan.points.at(0).scenario;
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << printable(message) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
  }
  return std::nullopt;
}

// Each job on a rig of its own (cli/host/device_rig.h).
Measured measure(const scenarios::Scenario& scenario) {
  Measured m;
  for (const os::DirectJob& job : devbench_jobs()) {
    DeviceRig rig(scenario.device, scenario.os, scenario.seed);
    m.scheduler = rig.scheduler();
    m.jobs.push_back(rig.run(job));
  }
  const auto drain = [&](std::int64_t stride, bool ascending) {
    DeviceRig rig(scenario.device, scenario.os, scenario.seed);
    return rig.run(os::DrainJob{.name = fmt::format("{}-1/{}", ascending ? "ascending" : "random", stride),
                                .stride = stride,
                                .ascending = ascending});
  };
  for (const std::int64_t stride : kDrainStrides) m.drains.emplace_back(drain(stride, true), drain(stride, false));
  return m;
}

void print_json(const std::string& preset, const Measured& m) {
  nlohmann::ordered_json out;
  out["preset"] = preset;
  out["jobs"] = nlohmann::ordered_json::array();
  for (const auto& r : m.jobs) {
    nlohmann::ordered_json j;
    j["name"] = r.name;
    j["iops"] = r.iops;
    j["mb_per_s"] = r.mb_per_s;
    j["lat_ms"] = {{"p50", r.p50_ms}, {"p99", r.p99_ms}};
    j["max_in_flight"] = r.max_in_flight;
    out["jobs"].push_back(j);
  }
  out["drain"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < kDrainStrides.size(); ++i) {
    nlohmann::ordered_json j;
    j["density_pct"] = 100.0 / static_cast<double>(kDrainStrides[i]);
    j["ascending_writes_per_s"] = m.drains[i].first.writes_per_s;
    j["random_writes_per_s"] = m.drains[i].second.writes_per_s;
    out["drain"].push_back(j);
  }
  std::cout << out.dump(2) << '\n';
}

void print_tables(const DevbenchArgs& args, const scenarios::Scenario& scenario, const Measured& m) {
  const bool changed = !args.sets.empty() || !args.preset_files.empty();
  // blk-throttle's limits, when the scenario caps the data device: its jobs run through it.
  const os::BlkThrottleConfig& cap = scenario.os.blkio_throttle;
  std::string limits;
  for (const auto& [value, what] : {std::pair{cap.read_iops, " read IOPS"}, std::pair{cap.write_iops, " write IOPS"}}) {
    if (value > 0) limits += (limits.empty() ? "" : ", ") + std::to_string(value) + what;
  }
  for (const auto& [value, what] : {std::pair{cap.read_bps, " read"}, std::pair{cap.write_bps, " write"}}) {
    if (value > 0) limits += (limits.empty() ? "" : ", ") + scenarios::format_bytes(value) + "/s" + what;
  }
  std::cout << fmt::format("{}{} ({} kernel, scheduler {}, {}8 kB I/O, O_DIRECT)\n", scenario.device.name,
                           changed ? " with --set / --preset-file values" : "", scenario.os.kernel, m.scheduler,
                           limits.empty() ? "" : "blk-throttle " + limits + ", ");
  std::cout << fmt::format("{:<16} {:>10} {:>10} {:>10} {:>10} {:>8}\n", "job", "IOPS", "MB/s", "p50 ms", "p99 ms",
                           "max qd");
  for (const auto& r : m.jobs) {
    std::cout << fmt::format("{:<16} {:>10.0f} {:>10.1f} {:>10.3f} {:>10.3f} {:>8}\n", r.name, r.iops, r.mb_per_s,
                             r.p50_ms, r.p99_ms, r.max_in_flight);
  }
  std::cout << "\nwriteback drain: one 8 kB async write per 1/density blocks of 2 GB, then a cache flush\n";
  std::cout << fmt::format("{:<16} {:>10} {:>16} {:>16}\n", "density", "writes", "ascending w/s", "random w/s");
  for (std::size_t i = 0; i < kDrainStrides.size(); ++i) {
    std::cout << fmt::format(
        "{:<16} {:>10} {:>16.0f} {:>16.0f}\n",
        fmt::format("{:.1f}% (1/{})", 100.0 / static_cast<double>(kDrainStrides[i]), kDrainStrides[i]),
        m.drains[i].first.writes, m.drains[i].first.writes_per_s, m.drains[i].second.writes_per_s);
  }
}

}  // namespace

int command_devbench(const DevbenchArgs& args) {
  const std::optional<scenarios::Scenario> scenario = device_scenario(args);
  if (!scenario) return 2;
  Measured measured;
  try {
    measured = measure(*scenario);
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 1;
  }
  if (args.json) {
    print_json(scenario->device.name, measured);
  } else {
    print_tables(args, *scenario, measured);
  }
  return 0;
}

Command add_devbench(CLI::App& app) {
  auto devbench = std::make_shared<DevbenchArgs>();
  auto* cmd = app.add_subcommand("devbench", "fio-like jobs against a device through the block layer");
  cmd->add_option("preset", devbench->preset, "Device preset (see `ckptsim presets`; default: raid1-hdd-7200)");
  cmd->add_option("--set", devbench->sets, "Override a setting, e.g. --set device.command_setup=0.3ms")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--preset-file", devbench->preset_files, "A preset file of your own, as for run")
      ->allow_extra_args(false);
  cmd->add_flag("--json", devbench->json, "Print the figures as JSON");
  return {cmd, [devbench] { return command_devbench(*devbench); }};
}

}  // namespace ckptsim::cli
