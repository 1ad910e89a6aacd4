// cli/run_point.h
//
// Runs one resolved scenario (one grid point) from start to finish and writes
// its folder: progress.csv, system.csv, postgres.log, summary.json (all pure
// functions of the scenario and its seed) and perf.json (wall-clock figures).
// This is the composition root: the only place that wires the layers together.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>

#include "analysis/stability.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct RunOptions {
  bool print_progress = false;              // pgbench -P lines on stdout
  double threshold = 10.0;                  // tps below which a second counts as a stall
  std::atomic<double>* fraction = nullptr;  // simulated progress 0..1, for a progress bar
};

struct RunOutcome {
  analysis::Stability stability;
  std::int64_t events = 0;
  double simulated_seconds = 0;
  double wall_seconds = 0;
};

RunOutcome run_point(const scenarios::Scenario& scenario, const std::filesystem::path& dir,
                     const RunOptions& options);

}  // namespace ckptsim::cli
