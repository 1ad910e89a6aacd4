// cli/commands/devbench.cpp
//
// The device is loaded as a scenario's is (preset, --preset-file fragments,
// --set values), so a grid or a typo is refused as `run` refuses it. Each
// job gets a fresh simulator, device and block queue, so jobs do not inherit
// each other's cache or queue state; each fio-like job runs 3 simulated
// seconds after a 0.5 s ramp. Then the drain jobs (models/os/drain_bench.h):
// a writeback sweep of 8 kB pages at 1 %, 3 %, 14 % and 50 % of a 2 GB span,
// ascending and in a random order, each until its cache flush. Output: two
// tables, or with --json
// {"preset": ..., "jobs": [{"name", "iops", "mb_per_s", "lat_ms": {"p50", "p99"}, "max_in_flight"}, ...],
//  "drain": [{"density_pct", "ascending_writes_per_s", "random_writes_per_s"}, ...]}.
#include "cli/commands/devbench.h"

#include <iostream>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/folder/printable.h"
#include "models/disk/make_device.h"
#include "models/os/block_queue.h"
#include "models/os/direct_io_bench.h"
#include "models/os/drain_bench.h"
#include "scenarios/scenario.h"

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

int command_devbench(const DevbenchArgs& args) {
  scenarios::Scenario scenario;
  try {
    nlohmann::json doc = nlohmann::json::object();
    if (!args.preset.empty()) doc["hardware"] = {{"device", args.preset}};
    const scenarios::LoadOptions options{.sets = args.sets,
                                         .preset_files = {args.preset_files.begin(), args.preset_files.end()}};
    const scenarios::Plan plan = scenarios::load_plan(scenarios::json(doc), options);
    if (plan.is_grid()) throw std::runtime_error("devbench measures one device; a grid is not accepted");
    scenario = plan.points.at(0).scenario;
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << printable(message) << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 2;
  }
  const bool json = args.json;
  const std::string& preset = scenario.device.name;
  const std::vector<os::DirectJob> jobs = devbench_jobs();
  // One dirty page in every `stride` blocks: 1 %, 3 %, 14 %, 50 %.
  const std::vector<std::int64_t> strides = {100, 33, 7, 2};
  std::vector<os::DirectJobResult> results;
  std::vector<std::pair<os::DrainResult, os::DrainResult>> drains;  // ascending, random
  std::string scheduler;
  try {
    for (const os::DirectJob& job : jobs) {
      sim::Simulator sim;
      auto device = disk::make_device(sim, scenario.device, scenario.seed, "data");
      os::BlockQueue queue(sim, scenario.os, *device, scenario.os.scheduler, "data");
      scheduler = queue.scheduler();
      results.push_back(os::run_direct_job(sim, queue, job, scenario.seed));
    }
    const auto drain = [&](std::int64_t stride, bool ascending) {
      sim::Simulator sim;
      auto device = disk::make_device(sim, scenario.device, scenario.seed, "data");
      os::BlockQueue queue(sim, scenario.os, *device, scenario.os.scheduler, "data");
      const os::DrainJob job{.name = fmt::format("{}-1/{}", ascending ? "ascending" : "random", stride),
                             .stride = stride,
                             .ascending = ascending};
      return os::run_drain_job(sim, queue, job, scenario.seed);
    };
    for (const std::int64_t stride : strides) drains.emplace_back(drain(stride, true), drain(stride, false));
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 1;
  }
  if (json) {
    nlohmann::ordered_json out;
    out["preset"] = preset;
    out["jobs"] = nlohmann::ordered_json::array();
    for (const auto& r : results) {
      nlohmann::ordered_json j;
      j["name"] = r.name;
      j["iops"] = r.iops;
      j["mb_per_s"] = r.mb_per_s;
      j["lat_ms"] = {{"p50", r.p50_ms}, {"p99", r.p99_ms}};
      j["max_in_flight"] = r.max_in_flight;
      out["jobs"].push_back(j);
    }
    out["drain"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < strides.size(); ++i) {
      nlohmann::ordered_json j;
      j["density_pct"] = 100.0 / static_cast<double>(strides[i]);
      j["ascending_writes_per_s"] = drains[i].first.writes_per_s;
      j["random_writes_per_s"] = drains[i].second.writes_per_s;
      out["drain"].push_back(j);
    }
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  const bool changed = !args.sets.empty() || !args.preset_files.empty();
  std::cout << fmt::format("{}{} ({} kernel, scheduler {}, 8 kB I/O, O_DIRECT)\n", preset,
                           changed ? " with --set / --preset-file values" : "", scenario.os.kernel, scheduler);
  std::cout << fmt::format("{:<16} {:>10} {:>10} {:>10} {:>10} {:>8}\n", "job", "IOPS", "MB/s", "p50 ms", "p99 ms",
                           "max qd");
  for (const auto& r : results) {
    std::cout << fmt::format("{:<16} {:>10.0f} {:>10.1f} {:>10.3f} {:>10.3f} {:>8}\n", r.name, r.iops, r.mb_per_s,
                             r.p50_ms, r.p99_ms, r.max_in_flight);
  }
  std::cout << "\nwriteback drain: one 8 kB async write per 1/density blocks of 2 GB, then a cache flush\n";
  std::cout << fmt::format("{:<16} {:>10} {:>16} {:>16}\n", "density", "writes", "ascending w/s", "random w/s");
  for (std::size_t i = 0; i < strides.size(); ++i) {
    std::cout << fmt::format("{:<16} {:>10} {:>16.0f} {:>16.0f}\n",
                             fmt::format("{:.1f}% (1/{})", 100.0 / static_cast<double>(strides[i]), strides[i]),
                             drains[i].first.writes, drains[i].first.writes_per_s, drains[i].second.writes_per_s);
  }
  return 0;
}

}  // namespace ckptsim::cli
