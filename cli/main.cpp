// ckptsim: the command line. run / check / analyze / presets / devbench / compare-pg.
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/compare_pg.h"
#include "cli/devbench.h"

int main(int argc, char** argv) {
  using namespace ckptsim::cli;
  CLI::App app{"ckptsim: a discrete-event simulator of PostgreSQL's write path under a pgbench load"};
  app.require_subcommand(1);

  RunArgs run;
  auto* run_cmd = app.add_subcommand("run", "Run a scenario or a whole grid and write its CSVs, summary and plots");
  run_cmd->add_option("scenario", run.scenario, "Scenario JSON file (default: the shipped scenarios/default.json)");
  run_cmd->add_option("--out", run.out, "Output folder (default: out/<scenario name>)");
  run_cmd->add_option("--set", run.sets, "Override a setting, e.g. --set postgres.shared_buffers=2GB")
      ->take_all()
      ->allow_extra_args(false);
  run_cmd->add_option("--jobs,-j", run.jobs, "Grid points run in parallel (default: all cores)")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("--seed", run.seed, "Override the scenario's seed");
  run_cmd->add_option("--threshold", run.threshold, "tps below which an interval counts as a stall")
      ->check(CLI::NonNegativeNumber);
  run_cmd->add_flag("--quiet,-q", run.quiet, "Print nothing but errors");

  CheckArgs check;
  auto* check_cmd = app.add_subcommand("check", "Validate a scenario and print its fully resolved settings");
  check_cmd->add_option("scenario", check.scenario, "Scenario JSON file")->required();
  check_cmd->add_option("--set", check.sets, "Override a setting, as for run");

  AnalyzeArgs analyze;
  auto* analyze_cmd = app.add_subcommand("analyze", "Stability figures of a per-interval tps series (progress.csv)");
  analyze_cmd->add_option("progress", analyze.progress, "progress.csv (columns time_s and tps)")->required();
  analyze_cmd->add_option("--threshold", analyze.threshold, "tps below which an interval counts as a stall")
      ->check(CLI::NonNegativeNumber);
  analyze_cmd->add_flag("--json", analyze.json, "Print the figures as JSON");

  auto* presets_cmd = app.add_subcommand("presets", "List the shipped presets, one line each");

  std::string device_preset;
  bool devbench_json = false;
  auto* devbench_cmd = app.add_subcommand("devbench", "fio-like jobs against a device preset through the block layer");
  devbench_cmd->add_option("preset", device_preset, "Device preset (see `ckptsim presets`)")->required();
  devbench_cmd->add_flag("--json", devbench_json, "Print the figures as JSON");

  std::string recorded;
  auto* compare_cmd = app.add_subcommand(
      "compare-pg", "Run the cases recorded from a real PostgreSQL 15 (scripts/validate-pg) and compare the counters");
  compare_cmd->add_option("recorded", recorded, "JSON written by scripts/validate-pg")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (run.jobs <= 0) run.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  if (run_cmd->parsed()) return command_run(run);
  if (check_cmd->parsed()) return command_check(check);
  if (analyze_cmd->parsed()) return command_analyze(analyze);
  if (presets_cmd->parsed()) return command_presets();
  if (devbench_cmd->parsed()) return command_devbench(device_preset, devbench_json);
  if (compare_cmd->parsed()) return command_compare_pg(recorded);
  return 2;
}
