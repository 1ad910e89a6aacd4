// cli/run/run_plan.h
//
// Runs every point of a plan (one scenario, or a grid's cross product) on a
// pool of worker threads. Points are independent simulations, so the files a
// point writes do not depend on --jobs; the grid's summary.csv, report.txt
// and plots are written after all points, in point order.
#pragma once

#include <filesystem>
#include <optional>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct PlanOptions {
  int jobs = 1;
  bool quiet = false;
  double threshold = 10.0;
  std::optional<sim::Duration> crash_at;  // --crash-at, for every point
  std::string title = "ckptsim";          // the plots' title: the scenario's name
  bool overridden = false;                // --set / --preset-file given: the verdict says it is not the published setup
  std::string scenario_file;  // the scenario's file as run.json and grid.json record it (scenario_file_from)
};

// Returns the process exit code (0 when every point ran).
int run_plan(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options);

}  // namespace ckptsim::cli
