// cli/run/run_plan.h
//
// Runs every point of a plan (one scenario, or a grid's cross product): a
// single run and a chained grid in this process, the other grids' points in
// processes that share warmups (forked_grid.h). Points are independent
// simulations, so the files a point writes do not depend on --jobs; the
// grid's summary.csv, report.txt and plots are written after all points from
// the point folders (cli/report/grid_report.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct PlanOptions {
  int jobs = 1;
  bool quiet = false;
  double threshold = 10.0;
  std::optional<sim::Duration> crash_at;  // --crash-at, for every point
  bool profile = false;                   // --profile, for every point (cli/report/run_profile.h)
  std::string title = "ckptsim";          // the plots' title: the scenario's name
  bool overridden = false;                // --set / --preset-file given: the verdict says it is not the published setup
  std::string scenario_file;  // the scenario's file as run.json and grid.json record it (scenario_file_from)
  // A share of a grid (--shard I/K, --point NAME): the points to run (empty:
  // all). Such a run writes grid.json and its points' folders, not the grid's
  // table or plots (`ckptsim report` does, once every share is there).
  std::vector<char> selected{};
  std::string selection_name{};  // "share 2/3", "point NAME": how it is told
};

// Returns the process exit code (0 when every point ran).
int run_plan(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options);

}  // namespace ckptsim::cli
