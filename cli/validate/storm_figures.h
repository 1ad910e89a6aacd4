// cli/validate/storm_figures.h
//
// The figures `ckptsim validate` judges a storm by, computed the same way
// for the real and the simulated run, and the bands of issue 38:
//
//   mean tps                 within 20 %
//   median tps               within 25 % or 10 tps
//   % of seconds < 10 tps    within 10 percentage points
//   mean tps between checkpoints, in write phases, in sync phases
//                            each within 25 % or 10 tps; a phase counts
//                            only when it lasts 3 s or more, and a kind is
//                            compared only when both runs have such phases
//   checkpoint write seconds within 30 %
//   checkpoint sync seconds  within a factor of 2, or both under 1 s
//   buffers per checkpoint   within 15 %
//
// Checkpoint figures are means over the checkpoints that began and
// completed within the run (tests/data/storm/README.md); the phases of one
// still running at the end count up to the end. A second belongs to the
// phase its middle lies in.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/validate/storm_run.h"

namespace ckptsim::cli {

struct StormFigures {
  double mean = 0, median = 0, pct_below_10 = 0;
  std::optional<double> between, write, sync;  // mean tps in phases of 3 s or more; none: no such phase
  double between_s = 0, write_phase_s = 0, sync_phase_s = 0;  // seconds those means are over
  int checkpoints = 0;  // begun and completed within the run
  double write_s = 0, sync_s = 0, buffers = 0;
};

StormFigures storm_figures(const StormRun& run);

struct Verdict {
  std::string figure;  // as printed: "mean tps"
  std::string key;     // as in --json and EXPECTED_MISSES: "mean"
  double real = 0, sim = 0;
  std::string band;    // "±20 %"
  bool compared = true;
  bool held = true;
  std::string note;    // why not compared
};

std::vector<Verdict> judge(const StormFigures& real, const StormFigures& sim);

}  // namespace ckptsim::cli
