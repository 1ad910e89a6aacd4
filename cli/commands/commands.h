// cli/commands/commands.h
//
// The subcommands of the ckptsim binary. Each returns the process exit code:
// 0 on success, 1 when a run or a write failed, 2 on bad input (nothing was
// run) or a refused output folder (cli/folder/run_folder.h), and for a run that was
// stopped (cli/folder/stop.h) 130 (SIGINT), 143 (SIGTERM or SIGHUP) or 3 (--max-wall).
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

struct CheckArgs {
  std::string scenario;
  std::vector<std::string> sets;
  std::vector<std::string> preset_files;
  std::uint64_t max_points = scenarios::kDefaultMaxPoints;
};

struct AnalyzeArgs {
  std::vector<std::string> inputs;  // one file or folder, or one run's aggregate logs (cli/analyze.h)
  double threshold = 10.0;
  double interval_s = 0;  // 0: inferred from the times
  bool json = false;
};

struct CompareArgs {
  std::string real, simulated;
  std::string out = ".";  // where compare.png, .svg and .gp go
  double threshold = 10.0;
  double interval_s = 0;
  bool json = false;
};

int command_run(const RunArgs& args);
int command_check(const CheckArgs& args);
// Stability figures of a progress.csv, a real pgbench -P log or aggregate logs.
int command_analyze(const AnalyzeArgs& args);
// The same figures of a real run and a simulated one, side by side.
int command_compare(const CompareArgs& args);
int command_presets();
// Draws a run's or a grid's plots again from its CSVs (cli/report/plot_folder.h).
int command_plot(const std::string& dir);
// Writes the static HTML pages over every run and grid under DIR (cli/pages/results_index.h).
int command_index(const std::string& dir);
// Writes a grid's summary.csv, report.txt and plots again from its point
// folders (cli/report/grid_report.h); 1 when points are missing or incomplete.
int command_report(const std::string& dir);

}  // namespace ckptsim::cli
