// `ckptsim run`: a scenario or a grid, checked, run into a claimed folder, then indexed.
#include "cli/commands/commands.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands/grid_shares.h"
#include "cli/host/memory_estimate.h"
#include "cli/commands/scenario_file.h"
#include "cli/pages/results_index.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/run/run_plan.h"
#include "cli/folder/stop.h"

namespace ckptsim::cli {

int command_run(const RunArgs& args) {
  const auto plan = load_scenario(args.scenario, {.sets = args.sets,
                                                  .preset_files = {args.preset_files.begin(), args.preset_files.end()},
                                                  .seed = args.seed,
                                                  .max_points = args.max_points});
  if (!plan) return 2;
  std::filesystem::path out = args.out;
  const std::filesystem::path source =
      args.scenario.empty() ? default_scenario() : std::filesystem::path(args.scenario);
  std::error_code ec;
  std::filesystem::path source_file = std::filesystem::weakly_canonical(std::filesystem::absolute(source), ec);
  if (ec) source_file = std::filesystem::absolute(source).lexically_normal();
  const bool default_out = out.empty();
  if (default_out) out = std::filesystem::path(run_files::kDefaultOutFolder) / source.stem();
  const bool sharing = args.list_points || !args.shard.empty() || !args.point.empty();
  if (sharing && (!plan->is_grid() || plan->chained)) {
    std::cerr << "error: "
              << (args.list_points      ? "--list-points"
                  : !args.shard.empty() ? "--shard"
                                        : "--point")
              << ": "
              << (plan->chained ? "a chained grid runs on one host, one point after another; it cannot be split"
                                : "the scenario has one point (no \"grid\", no \"repeat\"); run it as it is")
              << '\n';
    return 2;
  }
  if (args.list_points) {
    std::cout << point_command_lines(args, *plan, source_file.string(), out.string());
    return 0;
  }
  std::vector<char> selected;
  std::string selection_name;
  if (!args.shard.empty()) {
    const auto share = parse_share(args.shard);
    if (!share) return 2;
    selected = share_points(plan->points.size(), *share);
    selection_name = fmt::format("share {}/{}", share->index, share->of);
  }
  if (!args.point.empty()) {
    const auto at = std::find_if(plan->points.begin(), plan->points.end(),
                                 [&](const scenarios::GridPoint& p) { return p.name == args.point; });
    if (at == plan->points.end()) {
      std::cerr << "error: --point \"" << printable(args.point) << "\" is not a point of the grid (`ckptsim run "
                << printable(args.scenario) << " --list-points` lists them)\n";
      return 2;
    }
    if (default_out) out /= args.point;
    if (out.lexically_normal().filename() != args.point) {
      std::cerr << "error: --out " << printable(out.string()) << ": a point runs into its folder in the grid's, "
                << "GRID/" << printable(args.point) << " (as --list-points gives it)\n";
      return 2;
    }
    selected.assign(plan->points.size(), 0);
    selected[static_cast<std::size_t>(at - plan->points.begin())] = 1;
    selection_name = "point " + args.point;
    out = out.lexically_normal().parent_path();
    if (out.empty()) out = ".";
  }
  std::optional<sim::Duration> crash_at;
  if (!args.crash_at.empty()) {
    std::string expected;
    crash_at = scenarios::parse_duration(nlohmann::json(args.crash_at), sim::kSecond, &expected);
    if (!crash_at || *crash_at <= 0) {
      std::cerr << "error: --crash-at: \"" << printable(args.crash_at) << "\" "
                << (crash_at ? std::string("is not after the run's start (expected a duration above 0)") : expected)
                << '\n';
      return 2;
    }
    if (plan->chained) {
      std::cerr << "error: --crash-at: a power loss in a chained grid would end the host its later points run on; "
                   "run the point alone, or drop \"chain\"\n";
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
  // A chain runs on one worker, whatever --jobs says (run_plan.h).
  if (const auto refusal = memory_refusal(*plan, plan->chained ? 1 : args.jobs, host_available_mb())) {
    std::cerr << "error: " << printable(*refusal) << '\n';
    return 2;
  }
  install_stop_handlers();
  if (args.max_wall_s > 0) set_wall_budget(std::chrono::duration<double>(args.max_wall_s));
  try {
    // out/<stem> is shared by every scenario file of that stem: it is refused to another one's.
    if (default_out && std::filesystem::is_directory(out)) refuse_other_scenario(out, source_file);
    // A share runs beside others in the grid's folder: it locks none (grid_shares.h).
    const ClaimedOutput claimed = claim_output(out, /*lock=*/selected.empty());  // locked until the index is refreshed
    out = claimed.dir;
    const int rc = run_plan(*plan, out,
                            {.jobs = args.jobs,
                             .quiet = args.quiet,
                             .threshold = args.threshold,
                             .crash_at = crash_at,
                             .profile = args.profile,
                             .title = source_name(args.scenario),
                             .overridden = !args.sets.empty() || !args.preset_files.empty(),
                             .scenario_file = scenario_file_from(out, source_file),
                             .selected = std::move(selected),
                             .selection_name = selection_name});
    if (selection_name.empty()) refresh_indexes(out);  // a stopped or failed run too: its page says what it left
    return rc;
  } catch (const std::exception& e) {  // a refused folder (exit 2), or a file not written (1)
    return report_failure(e);
  }
}

}  // namespace ckptsim::cli
