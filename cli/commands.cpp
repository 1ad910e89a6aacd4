#include "cli/commands.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>

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
  analysis::ProgressCounts counts;
  try {
    tps = analysis::read_tps_series(args.progress);
    if (tps.empty()) throw std::runtime_error(args.progress + ": no rows after the header: nothing to analyze");
    counts = analysis::read_progress_counts(args.progress);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  const analysis::Stability s =
      analysis::compute_stability(tps, args.threshold, counts.transactions, counts.skipped, counts.late);
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
