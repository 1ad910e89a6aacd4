#include "cli/commands.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "analysis/stability.h"
#include "cli/memory_estimate.h"
#include "cli/plot_folder.h"
#include "cli/results_index.h"
#include "cli/run_folder.h"
#include "analysis/plots.h"
#include "cli/run_plan.h"
#include "cli/run_summary.h"
#include "cli/stop.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

namespace {

std::filesystem::path default_scenario() { return scenarios::project_home() / "scenarios" / "default.json"; }

// Loads a plan, printing every error the loader found; nullopt means exit 2.
std::optional<scenarios::Plan> load(const std::string& file, const scenarios::LoadOptions& options) {
  try {
    scenarios::Plan plan =
        scenarios::load_plan(file.empty() ? default_scenario() : std::filesystem::path(file), options);
    for (const std::string& warning : plan.warnings) std::cerr << "warning: " << warning << '\n';
    return plan;
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << message << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
  }
  return std::nullopt;
}

// The scenario's name for titles: its file's stem.
std::string source_name(const std::string& file) {
  return (file.empty() ? default_scenario() : std::filesystem::path(file)).stem().string();
}

}  // namespace

int command_plot(const std::string& dir) {
  if (!analysis::gnuplot_available()) {
    std::cerr << "error: gnuplot not found (scripts/setup installs it)\n";
    return 1;
  }
  try {
    plot_folder(dir);
  } catch (const FolderRefused& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {  // a plot that could not be written
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  refresh_indexes(dir);
  return 0;
}

int command_index(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) {
    std::cerr << "error: " << dir << ": not a folder\n";
    return 2;
  }
  try {
    const IndexWritten written = write_results_index(dir);
    std::cout << fmt::format("{}: {} runs, {} grids, {} pages\n",
                             (std::filesystem::path(dir) / "index.html").string(), written.runs, written.grids,
                             written.pages);
  } catch (const FolderRefused& e) {  // a page it did not write, in its way
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

int command_run(const RunArgs& args) {
  const auto plan = load(args.scenario, {.sets = args.sets,
                                         .preset_files = {args.preset_files.begin(), args.preset_files.end()},
                                         .seed = args.seed,
                                         .max_points = args.max_points});
  if (!plan) return 2;
  std::filesystem::path out = args.out;
  if (out.empty()) {
    const std::filesystem::path source = args.scenario.empty() ? default_scenario() : std::filesystem::path(args.scenario);
    out = std::filesystem::path("out") / source.stem();
  }
  std::optional<sim::Duration> crash_at;
  if (!args.crash_at.empty()) {
    std::string expected;
    crash_at = scenarios::parse_duration(nlohmann::json(args.crash_at), sim::kSecond, &expected);
    if (!crash_at || *crash_at <= 0) {
      std::cerr << "error: --crash-at: \"" << args.crash_at << "\" "
                << (crash_at ? std::string("is not after the run's start (expected a duration above 0)") : expected)
                << '\n';
      return 2;
    }
    for (const auto& point : plan->points) {
      const auto& load = point.scenario.pgbench;
      if (load.transactions == 0 && *crash_at > load.duration) {
        std::cerr << "error: --crash-at " << scenarios::format_duration(*crash_at) << " is after the run's end ("
                  << scenarios::format_duration(load.duration) << " of /pgbench/duration"
                  << (plan->is_grid() ? " at point " + point.name : std::string()) << ")\n";
        return 2;
      }
    }
  }
  if (const auto refusal = memory_refusal(*plan, args.jobs, host_available_mb())) {
    std::cerr << "error: " << *refusal << '\n';
    return 2;
  }
  install_stop_handlers();
  if (args.max_wall_s > 0) set_wall_budget(std::chrono::duration<double>(args.max_wall_s));
  try {
    const ClaimedOutput claimed = claim_output(out);  // locked until the index is refreshed
    out = claimed.dir;
    const int rc = run_plan(*plan, out,
                            {.jobs = args.jobs, .quiet = args.quiet, .threshold = args.threshold, .crash_at = crash_at,
                             .title = source_name(args.scenario)});
    refresh_indexes(out);  // a stopped or failed run too: its page says what it left
    return rc;
  } catch (const FolderRefused& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 1;
  }
}

int command_check(const CheckArgs& args) {
  const auto plan = load(args.scenario, {.sets = args.sets,
                                         .preset_files = {args.preset_files.begin(), args.preset_files.end()},
                                         .seed = std::nullopt,
                                         .max_points = args.max_points});
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
