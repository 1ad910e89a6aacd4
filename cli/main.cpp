// ckptsim: the command line. run / check / analyze / compare / presets / plot / report / index / devbench /
// calibrate / bench / compare-pg.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "cli/commands/bench.h"
#include "cli/commands/calibrate.h"
#include "cli/commands/commands.h"
#include "cli/commands/compare_pg.h"
#include "cli/commands/devbench.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"

namespace {

// Command-line values, validated with messages a user can read (CLI11's own
// ranges print the limits of double): `accepts` says whether the text is
// valid, `expected` what a valid one is.
CLI::Validator readable(std::string name, std::string expected, bool (*accepts)(const std::string&)) {
  return CLI::Validator(
      [expected, accepts](std::string& text) -> std::string {
        return accepts(text) ? "" : "expected " + expected + ", not \"" + text + "\"";
      },
      std::move(name));
}

// The whole text read as a number of type T by std::from_chars.
template <class T>
std::optional<T> whole_text_as(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

const CLI::Validator kCountAtLeastOne = readable("1..4096", "a whole number from 1 to 4096", [](const std::string& t) {
  const auto n = whole_text_as<long long>(t);
  return n && *n >= 1 && *n <= 4096;
});
const CLI::Validator kTpsThreshold = readable("TPS >= 0", "a number of tps of at least 0", [](const std::string& t) {
  const auto v = whole_text_as<double>(t);
  return v && std::isfinite(*v) && *v >= 0;
});
const CLI::Validator kPositiveSeconds =
    readable("SECONDS > 0", "a number of seconds above 0", [](const std::string& t) {
      const auto v = whole_text_as<double>(t);
      return v && std::isfinite(*v) && *v > 0;
    });
// --seed (as the scenario's "seed"), --max-points: nothing wrapped.
const CLI::Validator kUnsigned64 =
    readable("UINT64", "a whole number from 0 to 18446744073709551615", [](const std::string& t) {
      return t.find_first_not_of("0123456789") == std::string::npos && whole_text_as<std::uint64_t>(t).has_value();
    });

// A closed stdin, stdout or stderr (`ckptsim run S >&-`) gets /dev/null, so
// that no output file is opened as descriptor 1 and receives the progress lines.
void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
}

using namespace ckptsim::cli;
using namespace ckptsim::cli::run_files;

CLI::App* add_run(CLI::App& app, RunArgs& run) {
  auto* cmd = app.add_subcommand("run", "Run a scenario or a whole grid and write its CSVs, summary and plots");
  cmd->add_option("scenario", run.scenario, "Scenario JSON file (default: the shipped scenarios/default.json)");
  cmd->add_option("--out", run.out, fmt::format("Output folder (default: {}/<scenario name>)", kDefaultOutFolder))
      ->check(readable("DIR", "a folder path", [](const std::string& t) { return !t.empty(); }));
  cmd->add_option("--set", run.sets, "Override a setting, e.g. --set postgres.shared_buffers=2GB")
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--preset-file", run.preset_files,
                  "A preset file of your own (repeatable), laid over the scenario's preset list")
      ->allow_extra_args(false);
  cmd->add_option("--jobs,-j", run.jobs, "Grid points run in parallel (default: all cores)")->check(kCountAtLeastOne);
  cmd->add_option("--seed", run.seed, "Override the scenario's seed")->check(kUnsigned64);
  cmd->add_option("--threshold", run.threshold, "tps below which an interval counts as a stall")->check(kTpsThreshold);
  cmd->add_option("--max-points", run.max_points, "Largest grid accepted")->check(kUnsigned64)->capture_default_str();
  cmd->add_option("--crash-at", run.crash_at,
                  fmt::format("Cut the power at this time of the measured run (e.g. 95s) and write {}", kCrashJson));
  cmd->add_option("--max-wall", run.max_wall_s,
                  "Stop after this many wall-clock seconds, as Ctrl-C does (the folder is marked partial)")
      ->check(kPositiveSeconds);
  cmd->add_flag("--quiet,-q", run.quiet, "Print nothing but errors");
  auto* list = cmd->add_flag("--list-points", run.list_points,
                             "Print one command line per point (and repeat) that runs it alone, then exit");
  auto* shard = cmd->add_option("--shard", run.shard,
                                "Run only the I-th of K shares of the grid's points (I/K, shares numbered from 1)");
  auto* point = cmd->add_option("--point", run.point, "Run only this point of the grid, into --out (GRID/NAME)");
  list->excludes(shard)->excludes(point);
  shard->excludes(point);
  cmd->add_flag("--profile", run.profile,
                fmt::format("Charge events and wall time to engine, pgbench, postgres, kernel, block layer and device: "
                            "printed after a single run, and in each run's {}",
                            kPerfJson));
  return cmd;
}

CLI::App* add_check(CLI::App& app, CheckArgs& check) {
  auto* cmd = app.add_subcommand("check", "Validate a scenario and print its fully resolved settings");
  cmd->add_option("scenario", check.scenario, "Scenario JSON file")->required();
  cmd->add_option("--set", check.sets, "Override a setting, as for run");
  cmd->add_option("--preset-file", check.preset_files, "A preset file of your own, as for run")
      ->allow_extra_args(false);
  cmd->add_option("--max-points", check.max_points, "Largest grid accepted")->check(kUnsigned64)->capture_default_str();
  return cmd;
}

CLI::App* add_analyze(CLI::App& app, AnalyzeArgs& analyze) {
  auto* cmd = app.add_subcommand(
      "analyze",
      fmt::format("Stability figures of a run: a {}, a real pgbench -P log or pgbench aggregate logs", kProgressCsv));
  cmd->add_option("input", analyze.inputs,
                  fmt::format("{0} or a run folder; pgbench -P output (stderr); or one run's aggregate logs "
                              "({1}PID {1}PID.1 ...)",
                              kProgressCsv, kAggregateLogPrefix))
      ->required();
  cmd->add_option("--threshold", analyze.threshold, "tps below which an interval counts as a stall")
      ->check(kTpsThreshold);
  cmd->add_option("--interval", analyze.interval_s, "Interval in seconds (default: inferred from the times)")
      ->check(kPositiveSeconds);
  cmd->add_flag("--json", analyze.json, "Print the figures as JSON");
  return cmd;
}

CLI::App* add_compare(CLI::App& app, CompareArgs& compare) {
  auto* cmd =
      app.add_subcommand("compare", "A real run's stability figures beside a simulated one's, with the differences");
  cmd->add_option("real", compare.real, "The real run: pgbench -P output, an aggregate log, or a folder")->required();
  cmd->add_option("simulated", compare.simulated,
                  fmt::format("The simulated run: a run folder or its {}", kProgressCsv))
      ->required();
  cmd->add_option("--threshold", compare.threshold, "tps below which an interval counts as a stall")
      ->check(kTpsThreshold);
  cmd->add_option("--interval", compare.interval_s,
                  "Interval in seconds (default: inferred; a multiple of a log's own merges its intervals)")
      ->check(kPositiveSeconds);
  cmd->add_option("--out", compare.out,
                  fmt::format("Folder for {} and {} (default: the working folder)", kComparePng, kCompareSvg));
  cmd->add_flag("--json", compare.json, "Print the figures as JSON");
  return cmd;
}

// A first word that is no command: name it and the commands, rather than CLI11's "a subcommand is required".
bool refuse_unknown_command(const CLI::App& app, int argc, char** argv) {
  const auto commands = app.get_subcommands({});
  const auto is_command = [&](const std::string& word) {
    return std::any_of(commands.begin(), commands.end(), [&](const CLI::App* sub) { return sub->get_name() == word; });
  };
  if (argc <= 1 || argv[1][0] == '-' || is_command(argv[1])) return false;
  std::string names;
  for (const CLI::App* sub : commands) names += (names.empty() ? "" : ", ") + sub->get_name();
  std::cerr << "error: unknown command \"" << printable(argv[1]) << "\" (expected one of " << names << ")\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  reserve_standard_descriptors();
  CLI::App app{"ckptsim: a discrete-event simulator of PostgreSQL's write path under a pgbench load"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ckptsim " CKPTSIM_VERSION);

  RunArgs run;
  CheckArgs check;
  AnalyzeArgs analyze;
  CompareArgs compare;
  auto* run_cmd = add_run(app, run);
  auto* check_cmd = add_check(app, check);
  auto* analyze_cmd = add_analyze(app, analyze);
  auto* compare_runs_cmd = add_compare(app, compare);
  auto* presets_cmd = app.add_subcommand("presets", "List the shipped presets, one line each");

  std::string plot_dir;
  auto* plot_cmd = app.add_subcommand("plot", "Draw a run's or a grid's plots again from its CSVs");
  plot_cmd
      ->add_option("dir", plot_dir, fmt::format("A run folder ({}) or a grid folder ({})", kProgressCsv, kGridRecord))
      ->required();

  std::string report_dir;
  auto* report_cmd = app.add_subcommand(
      "report", fmt::format("Write a grid's {}, {} and plots again from its point folders, and name the missing ones",
                            kSummaryCsv, kReportTxt));
  report_cmd->add_option("dir", report_dir, fmt::format("A grid folder ({})", kGridRecord))->required();

  std::string index_dir;
  auto* index_cmd = app.add_subcommand(
      "index", fmt::format("Write {} (and {}/ pages) over every run and grid under a folder, for a browser", kIndexHtml,
                           kIndexFolder));
  index_cmd->add_option("dir", index_dir, "The results folder")->required();

  DevbenchArgs devbench;
  auto* devbench_cmd = app.add_subcommand("devbench", "fio-like jobs against a device through the block layer");
  devbench_cmd->add_option("preset", devbench.preset, "Device preset (see `ckptsim presets`; default: raid1-hdd-7200)");
  devbench_cmd->add_option("--set", devbench.sets, "Override a setting, e.g. --set device.command_setup=0.3ms")
      ->take_all()
      ->allow_extra_args(false);
  devbench_cmd->add_option("--preset-file", devbench.preset_files, "A preset file of your own, as for run")
      ->allow_extra_args(false);
  devbench_cmd->add_flag("--json", devbench.json, "Print the figures as JSON");

  CalibrateArgs calibrate;
  auto* calibrate_cmd = app.add_subcommand(
      "calibrate", "Fit a device preset to fio's JSON output of scripts/calibrate.fio and write it as a preset file");
  calibrate_cmd->add_option("fio_json", calibrate.fio_json, "fio --output-format=json output")->required();
  calibrate_cmd->add_option("--name", calibrate.name, "The preset's name (default: calibrated)");
  calibrate_cmd->add_option("--out", calibrate.out, "The preset file to write (default: NAME.json; never overwritten)");

  BenchArgs bench;
  auto* bench_cmd = app.add_subcommand("bench", "How fast ckptsim simulates: fixed shipped scenarios, timed");
  bench_cmd->add_flag("--json", bench.json, "Print the figures as JSON");
  bench_cmd->add_option("--filter", bench.filter, "Run only the benchmarks whose name contains this");
  bench_cmd->add_flag("--quick", bench.quick,
                      "Cut each to 3 simulated seconds: checks that bench works, measures nothing");

  std::string recorded;
  auto* compare_cmd = app.add_subcommand(
      "compare-pg", "Run the cases recorded from a real PostgreSQL 15 (scripts/validate-pg) and compare the counters");
  compare_cmd->add_option("recorded", recorded, "JSON written by scripts/validate-pg")->required();

  if (refuse_unknown_command(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every command-line error exits 2, as bad
    // input does. CLI11's messages quote the arguments: printed escaped.
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    std::cout << out.str();
    std::cerr << printable_lines(err.str());
    return code == 0 ? 0 : 2;
  }
  if (run.jobs <= 0) run.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  int rc = 2;
  if (run_cmd->parsed()) rc = command_run(run);
  if (check_cmd->parsed()) rc = command_check(check);
  if (analyze_cmd->parsed()) rc = command_analyze(analyze);
  if (compare_runs_cmd->parsed()) rc = command_compare(compare);
  if (presets_cmd->parsed()) rc = command_presets();
  if (plot_cmd->parsed()) rc = command_plot(plot_dir);
  if (index_cmd->parsed()) rc = command_index(index_dir);
  if (report_cmd->parsed()) rc = command_report(report_dir);
  if (devbench_cmd->parsed()) rc = command_devbench(devbench);
  if (calibrate_cmd->parsed()) rc = command_calibrate(calibrate);
  if (compare_cmd->parsed()) rc = command_compare_pg(recorded);
  if (bench_cmd->parsed()) rc = command_bench(bench);
  // What stdout could not take (a full disk, a closed pipe) is an error, not a success.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "error: writing to standard output failed\n";
    return rc == 0 ? 1 : rc;
  }
  return rc;
}
