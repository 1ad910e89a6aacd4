// `ckptsim analyze`: the stability figures of one run (cli/report/judged_run.h),
// or of every point of a grid folder, one row each.

#include <algorithm>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "cli/commands/options.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/report/judged_run.h"
#include "cli/report/plot_folder.h"

namespace ckptsim::cli {

namespace {

struct AnalyzeArgs {
  std::vector<std::string> inputs;  // one file or folder, or one run's aggregate logs (analysis/tps_input.h)
  double threshold = 10.0;
  double interval_s = 0;  // 0: inferred from the times
  bool json = false;
};

}  // namespace

namespace fs = std::filesystem;

namespace {

// A grid folder: grid.json, and no progress.csv of its own.
bool is_grid_folder(const std::vector<std::string>& inputs) {
  return inputs.size() == 1 && fs::is_directory(inputs.front()) &&
         !fs::exists(fs::path(inputs.front()) / run_files::kProgressCsv) &&
         fs::exists(fs::path(inputs.front()) / run_files::kGridRecord);
}

// One row per point, in grid order; a point that cannot be judged (not run
// yet, a damaged progress.csv) is named on stderr and left out.
int analyze_grid(const AnalyzeArgs& args) {
  GridIndex grid;
  try {
    grid = read_grid_index(args.inputs.front());
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 2;
  }
  std::vector<std::pair<std::string, Judged>> rows;
  for (const fs::path& point : grid.points) {
    try {
      rows.emplace_back(point.filename().string(), judge({point}, args.threshold, args.interval_s));
    } catch (const std::exception& e) {
      std::cerr << "warning: " << printable(e.what()) << "; point left out\n";
    }
  }
  if (rows.empty()) {
    std::cerr << "error: " << printable(args.inputs.front()) << ": no point of the grid could be read\n";
    return 2;
  }
  if (args.json) {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const auto& [name, j] : rows) {
      nlohmann::ordered_json row{{"point", name}};
      const nlohmann::ordered_json figures = figures_json(j);  // named: items() of a temporary dangles
      for (const auto& [key, value] : figures.items()) row[key] = value;
      points.push_back(row);
    }
    std::cout << nlohmann::ordered_json{{"grid", grid.title}, {"points", points}}.dump(2) << '\n';
    return 0;
  }
  std::size_t width = 5;
  for (const auto& [name, j] : rows) width = std::max(width, printable(name).size());
  std::cout << fmt::format("{:<{}}  {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7}\n", "point", width, "intervals",
                           "tps mean", "stddev", fmt::format("<{:g} tps", args.threshold), "min", "median", "max",
                           "failed");
  for (const auto& [name, j] : rows) {
    const analysis::Stability& s = j.stability;
    std::cout << fmt::format("{:<{}}  {:>9} {:>9.1f} {:>9.1f} {:>8.1f}% {:>9.1f} {:>9.1f} {:>9.1f} {:>7}\n",
                             printable(name), width, j.input.tps.size(), s.tps_mean, s.tps_stddev,
                             s.pct_below_threshold, s.tps_min, s.tps_median, s.tps_max, failed_or_na(j.input));
  }
  return 0;
}

}  // namespace

int command_analyze(const AnalyzeArgs& args) {
  if (is_grid_folder(args.inputs)) return analyze_grid(args);
  Judged j;
  try {
    j = judge(std::vector<fs::path>(args.inputs.begin(), args.inputs.end()), args.threshold, args.interval_s);
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 2;
  }
  if (args.json) {
    std::cout << figures_json(j).dump(2) << '\n';
    return 0;
  }
  const analysis::Stability& s = j.stability;
  std::cout << fmt::format("input                 {} ({:g} s intervals)\n", j.input.format, j.input.interval_s)
            << fmt::format("intervals             {}\n", j.input.tps.size())
            << fmt::format("tps mean ± stddev     {:.1f} ± {:.1f}\n", s.tps_mean, s.tps_stddev)
            << fmt::format("below {:g} tps          {:.1f}%\n", s.threshold, s.pct_below_threshold)
            << fmt::format("min q1 median q3 max  {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}\n", s.tps_min, s.tps_q1,
                           s.tps_median, s.tps_q3, s.tps_max)
            << fmt::format("skipped / late        {} / {}\n", pct_or_na(j.input.has_skipped, s.skipped_pct),
                           pct_or_na(j.input.has_late, s.late_pct))
            << fmt::format("failed                {}\n", failed_or_na(j.input));
  return 0;
}

Command add_analyze(CLI::App& app) {
  auto analyze = std::make_shared<AnalyzeArgs>();
  auto* cmd = app.add_subcommand(
      "analyze", fmt::format("Stability figures of a run: a {}, a real pgbench -P log or pgbench aggregate logs",
                             run_files::kProgressCsv));
  cmd->add_option("input", analyze->inputs,
                  fmt::format("{0} or a run folder; pgbench -P output (stderr); or one run's aggregate logs "
                              "({1}PID {1}PID.1 ...)",
                              run_files::kProgressCsv, run_files::kAggregateLogPrefix))
      ->required();
  cmd->add_option("--threshold", analyze->threshold, "tps below which an interval counts as a stall")
      ->check(tps_threshold());
  cmd->add_option("--interval", analyze->interval_s, "Interval in seconds (default: inferred from the times)")
      ->check(positive_seconds());
  cmd->add_flag("--json", analyze->json, "Print the figures as JSON");
  return {cmd, [analyze] { return command_analyze(*analyze); }};
}

}  // namespace ckptsim::cli
