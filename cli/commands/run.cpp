// `ckptsim run`: a scenario or a grid, checked, run into a claimed folder, then indexed.
#include "cli/commands/run.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/grid_shares.h"
#include "cli/commands/options.h"
#include "cli/commands/scenario_file.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/folder/stop.h"
#include "cli/host/memory_estimate.h"
#include "cli/pages/results_index.h"
#include "cli/run/run_plan.h"

namespace ckptsim::cli {

namespace {

// The points a share of the grid runs (all when `selected` is empty), and its name in messages.
struct Selection {
  std::vector<char> selected;
  std::string name;
};

// --shard, --point and --list-points split a grid of independent points: refused, with why, for anything else.
bool refuse_sharing(const RunArgs& args, const scenarios::Plan& plan) {
  const bool sharing = args.list_points || !args.shard.empty() || !args.point.empty();
  if (!sharing || (plan.is_grid() && !plan.chained)) return false;
  std::cerr << "error: "
            << (args.list_points      ? "--list-points"
                : !args.shard.empty() ? "--shard"
                                      : "--point")
            << ": "
            << (plan.chained ? "a chained grid runs on one host, one point after another; it cannot be split"
                             : "the scenario has one point (no \"grid\", no \"repeat\"); run it as it is")
            << '\n';
  return true;
}

// The share that --shard or --point names; --point also moves `out` from GRID/NAME to the grid's folder.
// nullopt after printing why not.
std::optional<Selection> select_points(const RunArgs& args, const scenarios::Plan& plan, bool default_out,
                                       std::filesystem::path& out) {
  Selection s;
  if (!args.shard.empty()) {
    const auto share = parse_share(args.shard);
    if (!share) return std::nullopt;
    s.selected = share_points(plan.points.size(), *share);
    s.name = fmt::format("share {}/{}", share->index, share->of);
  }
  if (args.point.empty()) return s;
  const auto at = std::find_if(plan.points.begin(), plan.points.end(),
                               [&](const scenarios::GridPoint& p) { return p.name == args.point; });
  if (at == plan.points.end()) {
    std::cerr << "error: --point \"" << printable(args.point) << "\" is not a point of the grid (`ckptsim run "
              << printable(args.scenario) << " --list-points` lists them)\n";
    return std::nullopt;
  }
  if (default_out) out /= args.point;
  if (out.lexically_normal().filename() != args.point) {
    std::cerr << "error: --out " << printable(out.string()) << ": a point runs into its folder in the grid's, "
              << "GRID/" << printable(args.point) << " (as --list-points gives it)\n";
    return std::nullopt;
  }
  s.selected.assign(plan.points.size(), 0);
  s.selected[static_cast<std::size_t>(at - plan.points.begin())] = 1;
  s.name = "point " + args.point;
  out = out.lexically_normal().parent_path();
  if (out.empty()) out = ".";
  return s;
}

// --crash-at as a time of the measured run, within every point's run. False after printing why not.
bool read_crash_at(const RunArgs& args, const scenarios::Plan& plan, std::optional<sim::Duration>& crash_at) {
  if (args.crash_at.empty()) return true;
  std::string expected;
  crash_at = scenarios::parse_duration(nlohmann::json(args.crash_at), sim::kSecond, &expected);
  if (!crash_at || *crash_at <= 0) {
    std::cerr << "error: --crash-at: \"" << printable(args.crash_at) << "\" "
              << (crash_at ? std::string("is not after the run's start (expected a duration above 0)") : expected)
              << '\n';
    return false;
  }
  if (plan.chained) {
    std::cerr << "error: --crash-at: a power loss in a chained grid would end the host its later points run on; "
                 "run the point alone, or drop \"chain\"\n";
    return false;
  }
  for (const auto& point : plan.points) {
    const auto& load = point.scenario.pgbench;
    if (load.transactions == 0 && *crash_at > load.duration) {
      std::cerr << "error: --crash-at " << scenarios::format_duration(*crash_at) << " is after the run's end ("
                << scenarios::format_duration(load.duration) << " of /pgbench/duration"
                << (plan.is_grid() ? " at point " + point.name : std::string()) << ")\n";
      return false;
    }
  }
  return true;
}

}  // namespace

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
  if (refuse_sharing(args, *plan)) return 2;
  if (args.list_points) {
    std::cout << point_command_lines(args, *plan, source_file.string(), out.string());
    return 0;
  }
  std::optional<Selection> selection = select_points(args, *plan, default_out, out);
  if (!selection) return 2;
  std::optional<sim::Duration> crash_at;
  if (!read_crash_at(args, *plan, crash_at)) return 2;
  // A chain runs on one worker, whatever --jobs says (cli/run/run_plan.h).
  if (const auto refusal = memory_refusal(*plan, plan->chained ? 1 : args.jobs, host_available_mb())) {
    std::cerr << "error: " << printable(*refusal) << '\n';
    return 2;
  }
  install_stop_handlers();
  if (args.max_wall_s > 0) set_wall_budget(std::chrono::duration<double>(args.max_wall_s));
  try {
    // out/<stem> is shared by every scenario file of that stem: it is refused to another one's.
    if (default_out && std::filesystem::is_directory(out)) refuse_other_scenario(out, source_file);
    // A share runs beside others in the grid's folder: it locks none (cli/commands/grid_shares.h).
    const ClaimedOutput claimed =
        claim_output(out, /*lock=*/selection->selected.empty());  // locked until the index is refreshed
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
                             .selected = std::move(selection->selected),
                             .selection_name = selection->name});
    if (selection->name.empty()) refresh_indexes(out);  // a stopped or failed run too: its page says what it left
    return rc;
  } catch (const std::exception& e) {  // a refused folder (exit 2), or a file not written (1)
    return report_failure(e);
  }
}

Command add_run(CLI::App& app) {
  auto run = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run a scenario or a whole grid and write its CSVs, summary and plots");
  cmd->add_option("scenario", run->scenario, "Scenario JSON file (default: the shipped scenarios/default.json)");
  cmd->add_option("--out", run->out,
                  fmt::format("Output folder (default: {}/<scenario name>)", run_files::kDefaultOutFolder))
      ->check(folder_path());
  cmd->add_option("--set", run->sets, "Override a setting, e.g. --set postgres.shared_buffers=2GB")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--preset-file", run->preset_files,
                  "A preset file of your own (repeatable), laid over the scenario's preset list")
      ->allow_extra_args(false);
  cmd->add_option("--jobs,-j", run->jobs, "Grid points run in parallel (default: all cores)")
      ->check(count_at_least_one());
  cmd->add_option("--seed", run->seed, "Override the scenario's seed")->check(unsigned_64());
  cmd->add_option("--threshold", run->threshold, "tps below which an interval counts as a stall")
      ->check(tps_threshold());
  cmd->add_option("--max-points", run->max_points, "Largest grid accepted")
      ->check(unsigned_64())
      ->capture_default_str();
  cmd->add_option(
      "--crash-at", run->crash_at,
      fmt::format("Cut the power at this time of the measured run (e.g. 95s) and write {}", run_files::kCrashJson));
  cmd->add_option("--max-wall", run->max_wall_s,
                  "Stop after this many wall-clock seconds, as Ctrl-C does (the folder is marked partial)")
      ->check(positive_seconds());
  cmd->add_flag("--quiet,-q", run->quiet, "Print nothing but errors");
  auto* list = cmd->add_flag("--list-points", run->list_points,
                             "Print one command line per point (and repeat) that runs it alone, then exit");
  auto* shard = cmd->add_option("--shard", run->shard,
                                "Run only the I-th of K shares of the grid's points (I/K, shares numbered from 1)");
  auto* point = cmd->add_option("--point", run->point, "Run only this point of the grid, into --out (GRID/NAME)");
  list->excludes(shard)->excludes(point);
  shard->excludes(point);
  cmd->add_flag("--profile", run->profile,
                fmt::format("Charge events and wall time to engine, pgbench, postgres, kernel, block layer and device: "
                            "printed after a single run, and in each run's {}",
                            run_files::kPerfJson));
  return {cmd, [run] {
            if (run->jobs <= 0) run->jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
            return command_run(*run);
          }};
}

}  // namespace ckptsim::cli
