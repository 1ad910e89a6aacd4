// cli/devbench.cpp
//
// Each job gets a fresh simulator, device and block queue, so jobs do not
// inherit each other's cache or queue state; each runs 3 simulated seconds
// after a 0.5 s ramp. Output: a table, or with --json
// {"preset": ..., "jobs": [{"name", "iops", "mb_per_s", "lat_ms": {"p50", "p99"}}, ...]}.
#include "cli/devbench.h"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/disk/make_device.h"
#include "models/os/block_queue.h"
#include "models/os/direct_io_bench.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

int command_devbench(const std::string& preset, bool json) {
  scenarios::Scenario scenario;
  try {
    const nlohmann::json doc = {{"hardware", {{"device", preset}}}};
    scenario = scenarios::load_plan(doc, std::filesystem::current_path()).points.at(0).scenario;
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << message << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  const std::vector<os::DirectJob> jobs = {
      {.name = "randread-qd1", .write = false, .random = true, .iodepth = 1},
      {.name = "randread-qd32", .write = false, .random = true, .iodepth = 32},
      {.name = "randwrite-qd1", .write = true, .random = true, .iodepth = 1},
      {.name = "randwrite-qd32", .write = true, .random = true, .iodepth = 32},
      {.name = "seqread-qd1", .write = false, .random = false, .iodepth = 1},
      {.name = "seqwrite-qd1", .write = true, .random = false, .iodepth = 1},
  };
  std::vector<os::DirectJobResult> results;
  std::string scheduler;
  try {
    for (const os::DirectJob& job : jobs) {
      sim::Simulator sim;
      auto device = disk::make_device(sim, scenario.device, scenario.seed, "data");
      os::BlockQueue queue(sim, scenario.os, *device, scenario.os.scheduler, "data");
      scheduler = queue.scheduler();
      results.push_back(os::run_direct_job(sim, queue, job, scenario.seed));
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
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
      out["jobs"].push_back(j);
    }
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  std::cout << fmt::format("{} ({} kernel, scheduler {}, 8 kB I/O, O_DIRECT)\n", preset, scenario.os.kernel, scheduler);
  std::cout << fmt::format("{:<16} {:>10} {:>10} {:>10} {:>10}\n", "job", "IOPS", "MB/s", "p50 ms", "p99 ms");
  for (const auto& r : results) {
    std::cout << fmt::format("{:<16} {:>10.0f} {:>10.1f} {:>10.3f} {:>10.3f}\n", r.name, r.iops, r.mb_per_s, r.p50_ms,
                             r.p99_ms);
  }
  return 0;
}

}  // namespace ckptsim::cli
