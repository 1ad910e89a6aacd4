#include "cli/commands.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "analysis/stability.h"
#include "cli/run_plan.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

namespace {

std::filesystem::path default_scenario() { return scenarios::project_home() / "scenarios" / "default.json"; }

// Loads a plan, printing every error the loader found; nullopt means exit 2.
std::optional<scenarios::Plan> load(const std::string& file, const scenarios::LoadOptions& options) {
  try {
    return scenarios::load_plan(file.empty() ? default_scenario() : std::filesystem::path(file), options);
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << message << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
  }
  return std::nullopt;
}

}  // namespace

int command_run(const RunArgs& args) {
  const auto plan = load(args.scenario, {.sets = args.sets, .seed = args.seed, .max_points = args.max_points});
  if (!plan) return 2;
  std::filesystem::path out = args.out;
  if (out.empty()) {
    const std::filesystem::path source = args.scenario.empty() ? default_scenario() : std::filesystem::path(args.scenario);
    out = std::filesystem::path("out") / source.stem();
  }
  try {
    return run_plan(*plan, out, {.jobs = args.jobs, .quiet = args.quiet, .threshold = args.threshold});
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}

int command_check(const CheckArgs& args) {
  const auto plan = load(args.scenario, {.sets = args.sets, .seed = std::nullopt, .max_points = args.max_points});
  if (!plan) return 2;
  if (!plan->is_grid()) {
    std::cout << plan->points.front().scenario.resolved.dump(2) << '\n';
    return 0;
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& point : plan->points)
    points.push_back({{"point", point.name}, {"settings", point.scenario.resolved}});
  std::cout << nlohmann::ordered_json{{"grid", plan->grid_paths}, {"points", points}}.dump(2) << '\n';
  return 0;
}

int command_analyze(const AnalyzeArgs& args) {
  std::vector<double> tps;
  std::int64_t skipped = 0, late = 0, transactions = 0;
  try {
    tps = analysis::read_tps_series(args.progress);
    const std::string file = args.progress;
    if (tps.empty()) throw std::runtime_error(file + ": no rows after the header: nothing to analyze");
    // Skipped and late counts, when the file has them (ckptsim's progress.csv does).
    const analysis::CsvTable table = analysis::read_csv(args.progress);
    const int time = table.column("time_s"), tps_col = table.column("tps");
    const int skipped_col = table.column("skipped"), late_col = table.column("late");
    // A count cell: a whole number of transactions, or the row's line is named.
    const auto count = [&](const std::vector<std::string>& row, int col, const char* name, std::size_t line) {
      const std::string& cell = row[static_cast<std::size_t>(col)];
      std::size_t used = 0;
      long long n = -1;
      try {
        n = std::stoll(cell, &used);
      } catch (const std::exception&) {
      }
      if (used != cell.size() || n < 0) {
        throw std::runtime_error(fmt::format("{}:{}: {} \"{}\" is not a whole number of transactions", file, line,
                                             name, cell.substr(0, 40)));
      }
      return static_cast<std::int64_t>(n);
    };
    double previous = 0;
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      const auto& row = table.rows[i];
      const std::size_t line = i + 2;  // after the header
      const double t = std::stod(row[static_cast<std::size_t>(time)]);
      const double rate = std::stod(row[static_cast<std::size_t>(tps_col)]);
      if (!(rate >= 0 && rate <= 1e9)) {
        throw std::runtime_error(fmt::format("{}:{}: tps {} is out of range (0 to 1e9)", file, line,
                                             row[static_cast<std::size_t>(tps_col)].substr(0, 40)));
      }
      transactions += std::llround(rate * (t - previous));
      previous = t;
      if (skipped_col >= 0) skipped += count(row, skipped_col, "skipped", line);
      if (late_col >= 0) late += count(row, late_col, "late", line);
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  const analysis::Stability s = analysis::compute_stability(tps, args.threshold, transactions, skipped, late);
  if (args.json) {
    std::cout << nlohmann::ordered_json{{"intervals", tps.size()},
                                        {"tps_mean", s.tps_mean},
                                        {"tps_stddev", s.tps_stddev},
                                        {"threshold", s.threshold},
                                        {"pct_below_threshold", s.pct_below_threshold},
                                        {"tps_min", s.tps_min},
                                        {"tps_q1", s.tps_q1},
                                        {"tps_median", s.tps_median},
                                        {"tps_q3", s.tps_q3},
                                        {"tps_max", s.tps_max},
                                        {"skipped_pct", s.skipped_pct},
                                        {"late_pct", s.late_pct}}
                     .dump(2)
              << '\n';
    return 0;
  }
  std::cout << fmt::format("intervals             {}\n", tps.size())
            << fmt::format("tps mean ± stddev     {:.1f} ± {:.1f}\n", s.tps_mean, s.tps_stddev)
            << fmt::format("below {:g} tps          {:.1f}%\n", s.threshold, s.pct_below_threshold)
            << fmt::format("min q1 median q3 max  {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}\n", s.tps_min, s.tps_q1,
                           s.tps_median, s.tps_q3, s.tps_max)
            << fmt::format("skipped / late        {:.3f}% / {:.3f}%\n", s.skipped_pct, s.late_pct);
  return 0;
}

int command_presets() {
  std::string kind;
  for (const auto& preset : scenarios::list_presets()) {
    if (preset.kind != kind) {
      kind = preset.kind;
      std::cout << kind << ":\n";
    }
    std::cout << fmt::format("  {:<22} {}\n", preset.name, preset.description);
  }
  return 0;
}

}  // namespace ckptsim::cli
