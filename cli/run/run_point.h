// cli/run/run_point.h
//
// Runs one resolved scenario (one grid point) from start to finish and writes
// its folder: run.json (first), progress.csv, system.csv, waits.csv,
// io_layers.csv, postgres.log, perf.json (wall-clock figures) and summary.json
// (last). All but perf.json are pure functions of the scenario and its seed.
// A stop request ends the run after the current interval: its rows are
// committed and summary.json says "complete": false.
// This is the composition root: the only place that wires the layers together.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>

#include "cli/run/run_outcome.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct RunOptions {
  bool print_progress = false;              // pgbench -P lines on stdout
  double threshold = 10.0;                  // tps below which a second counts as a stall
  std::atomic<double>* fraction = nullptr;  // simulated progress 0..1, for a progress bar
  std::string record;                       // run.json: the recorded settings (run_folder.h)
  std::optional<sim::Duration> crash_at;    // --crash-at: a power loss then (crash_report.h)
};

RunOutcome run_point(const scenarios::Scenario& scenario, const std::filesystem::path& dir, const RunOptions& options);

}  // namespace ckptsim::cli
