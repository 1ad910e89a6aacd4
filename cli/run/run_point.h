// cli/run/run_point.h
//
// Runs one resolved scenario (one grid point) from start to finish and writes
// its folder: run.json (first), progress.csv, system.csv, waits.csv,
// io_layers.csv, postgres.log, perf.json (wall-clock figures) and summary.json
// (last). All but perf.json are pure functions of the scenario and its seed
// (run.json names the scenario's file as well, where it lies).
// A stop request ends the run after the current interval: its rows are
// committed and summary.json says "complete": false.
// The host it runs on is Machine (cli/host/machine.h), which wires the layers together.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "cli/host/machine.h"
#include "cli/report/run_outcome.h"
#include "models/pgbench/pgbench.h"
#include "scenarios/scenario.h"
#include "sim/profile.h"

namespace ckptsim::cli {

struct RunOptions {
  bool print_progress = false;              // pgbench -P lines on stdout
  double threshold = 10.0;                  // tps below which a second counts as a stall
  std::atomic<double>* fraction = nullptr;  // simulated progress 0..1, for a progress bar
  std::string record;                       // run.json: the recorded settings (cli/folder/run_folder.h)
  std::optional<sim::Duration> crash_at;    // --crash-at: a power loss then (cli/report/crash_report.h)
  bool profile = false;                     // --profile: events and wall time per component (cli/report/run_profile.h)
};

RunOutcome run_point(const scenarios::Scenario& scenario, const std::filesystem::path& dir, const RunOptions& options);
// A point whose host is built and warmed up with `host_settings` (a grid
// point's GridPoint::host()), its own PostgreSQL settings then applied by a
// reload when they differ (scenarios/scenario.h).
RunOutcome run_point(const scenarios::Scenario& scenario, const scenarios::Scenario& host_settings,
                     const std::filesystem::path& dir, const RunOptions& options);

// A run's host: the machine as pgbench -i left it, the server started, the
// warmup run (its object outlives it: its last transactions end later). No
// machine when a stop came during the setup or the warmup: `dir` then holds a
// summary.json that says so.
struct Host {
  std::unique_ptr<Machine> machine;
  std::unique_ptr<pgbench::Pgbench> warmup;
};
Host start_host(const scenarios::Scenario& scenario, const std::filesystem::path& dir, const RunOptions& options);
// The measured part of a point on a host built and warmed up with
// `host_settings`: its postgres.log goes to `dir` (the lines of the setup and
// warmup too), a reload applies the point's PostgreSQL settings when they
// differ, the statistics are reset and its pgbench runs (measure_point).
// run_point calls it on a host of its own; a shared warmup (warmup_group.h)
// on a copy of the group's host.
RunOutcome measure_on_host(Machine& machine, const scenarios::Scenario& host_settings,
                           const scenarios::Scenario& scenario, const std::filesystem::path& dir,
                           const RunOptions& options, std::chrono::steady_clock::time_point wall_start,
                           const sim::Profile* profile = nullptr);
// The outcome of a run whose host was stopped during its setup or warmup.
RunOutcome setup_stopped();

// Where a measured pgbench run sits on its host: its process id (the
// aggregate logs' names), the events the host ran before it, when its wall
// clock started, and for a point of a chain the state it starts from
// (summary.json's "start_state", run_chain.h) and what to do when the
// measured run ends, before its files are committed (a chain's point lets its
// pgbench exit there and returns the state it leaves: "end_state").
struct MeasureContext {
  int pgbench_pid = 0;
  std::int64_t events_before = 0;
  std::chrono::steady_clock::time_point wall_start;
  std::optional<nlohmann::ordered_json> start_state{};
  std::function<nlohmann::ordered_json()> at_end{};
  const sim::Profile* profile = nullptr;  // --profile's, for perf.json
};

// The measured part of a run, on a started (and warmed up) host whose
// statistics were just reset, with a new `bench`: the recorders, the run, and
// every file of the folder but run.json. `bench` outlives it (its last transactions may end later).
RunOutcome measure_point(Machine& machine, pgbench::Pgbench& bench, const scenarios::Scenario& scenario,
                         const std::filesystem::path& dir, const RunOptions& options, const MeasureContext& context);

}  // namespace ckptsim::cli
