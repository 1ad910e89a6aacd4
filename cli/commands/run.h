// cli/commands/run.h
//
// `ckptsim run [SCENARIO]`: a scenario or a grid, checked, run into a
// claimed folder, then indexed; or, with --shard, --point or --list-points,
// a share of a grid (cli/commands/grid_shares.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct RunArgs {
  std::string scenario;
  std::string out;
  std::vector<std::string> sets;
  std::vector<std::string> preset_files;  // --preset-file, in order
  int jobs = 0;                           // 0: all cores
  std::optional<std::uint64_t> seed;
  double threshold = 10.0;
  bool quiet = false;
  std::uint64_t max_points = scenarios::kDefaultMaxPoints;
  std::string crash_at;      // --crash-at: a duration into the measured run ("" : none)
  double max_wall_s = 0;     // 0: no limit; else stop as SIGINT does after this many wall-clock seconds
  bool list_points = false;  // --list-points: print a command line per point and exit (cli/commands/grid_shares.h)
  std::string shard;         // --shard I/K ("" : the whole grid)
  std::string point;         // --point NAME: that point alone, into --out (GRID/NAME)
  bool profile = false;      // events and wall time per component, printed and in perf.json
};

// `args.jobs` above 0 (add_run sets 0 to the number of cores).
int command_run(const RunArgs& args);

}  // namespace ckptsim::cli
