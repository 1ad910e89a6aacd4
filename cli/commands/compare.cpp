// `ckptsim compare`: a real run's stability figures beside a simulated one's,
// with the differences (cli/report/judged_run.h), and both runs' tps on
// one time axis in compare.png (analysis/plots.h: plot_compare).

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/plots.h"
#include "cli/commands/commands.h"
#include "cli/commands/options.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/report/judged_run.h"

namespace ckptsim::cli {

namespace {

struct CompareArgs {
  std::string real, simulated;
  std::string out = ".";  // where compare.png, .svg and .gp go
  double threshold = 10.0;
  double interval_s = 0;
  bool json = false;
};

}  // namespace

namespace fs = std::filesystem;

namespace {

// The rows compare prints: a name and one figure per run.
struct Row {
  std::string name, key;  // key: as in summary.json's "stability"
  double (*value)(const analysis::Stability&);
  bool is_pct;
};
const Row kRows[] = {
    {"tps mean", "tps_mean", [](const analysis::Stability& s) { return s.tps_mean; }, false},
    {"tps stddev", "tps_stddev", [](const analysis::Stability& s) { return s.tps_stddev; }, false},
    {"below threshold", "pct_below_threshold", [](const analysis::Stability& s) { return s.pct_below_threshold; },
     true},
    {"tps min", "tps_min", [](const analysis::Stability& s) { return s.tps_min; }, false},
    {"tps q1", "tps_q1", [](const analysis::Stability& s) { return s.tps_q1; }, false},
    {"tps median", "tps_median", [](const analysis::Stability& s) { return s.tps_median; }, false},
    {"tps q3", "tps_q3", [](const analysis::Stability& s) { return s.tps_q3; }, false},
    {"tps max", "tps_max", [](const analysis::Stability& s) { return s.tps_max; }, false},
};

// A run's entry in the picture's key: what it is and its stability figures.
analysis::CompareSeries plotted(const std::string& who, const Judged& j) {
  const analysis::Stability& s = j.stability;
  return {.title = fmt::format("{} ({}): tps {:.1f} ± {:.1f}, median {:.1f}, {:.1f}% of intervals below {:g} tps", who,
                               printable(j.input.files.front().string()), s.tps_mean, s.tps_stddev, s.tps_median,
                               s.pct_below_threshold, s.threshold),
          .interval_s = j.input.interval_s,
          .tps = j.input.tps};
}

// compare.png / .svg / .gp in args.out; the simulated run's checkpoints.csv,
// beside its progress.csv, shades its phases. Returns what was written.
std::string draw(const CompareArgs& args, const Judged& real, const Judged& simulated) {
  const fs::path out = args.out;
  const fs::path checkpoints = simulated.input.files.front().parent_path() / run_files::kCheckpointsCsv;
  analysis::plot_compare(
      out, plotted("real", real), plotted("simulated", simulated), checkpoints,
      fmt::format("tps per {:g} s interval, real and simulated", simulated.input.interval_s),
      {.script = run_files::kCompareScript, .png = run_files::kComparePng, .svg = run_files::kCompareSvg});
  if (!analysis::gnuplot_available()) {
    return fmt::format("{} (gnuplot not found: run it there to draw {})", (out / run_files::kCompareScript).string(),
                       run_files::kComparePng);
  }
  return fmt::format("{} and {}", (out / run_files::kComparePng).string(), run_files::kCompareSvg);
}

std::string difference(double real, double simulated, bool is_pct) {
  const double d = simulated - real;
  if (is_pct) return fmt::format("{:+.1f} points", d);
  if (real == 0) return fmt::format("{:+.1f}", d);
  return fmt::format("{:+.1f} ({:+.1f}%)", d, 100.0 * d / real);
}

// The picture after the figures: a failure to draw it is an error (exit 1), the figures stand.
int draw_or_fail(const CompareArgs& args, const Judged& real, const Judged& simulated, bool say) {
  try {
    const std::string written = draw(args, real, simulated);
    if (say) std::cout << fmt::format("{:<22}{}\n", "plot", printable(written));
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 1;
  }
}

// compare.png, .svg and .gp in `out` are replaced only when they are
// ckptsim's: beside a compare.gp that ckptsim wrote (its first line says so).
// A user's file of one of those names is never overwritten.
std::optional<std::string> foreign_picture(const fs::path& out) {
  std::ifstream script(out / run_files::kCompareScript);
  std::string first;
  std::getline(script, first);
  const bool ours = first.starts_with(std::string("# ") + run_files::kCompareScript + ": ") &&
                    first.ends_with("written by ckptsim.");
  for (const char* name : {run_files::kComparePng, run_files::kCompareSvg, run_files::kCompareScript}) {
    std::error_code ec;
    if (fs::symlink_status(out / name, ec).type() != fs::file_type::not_found && !ours) return (out / name).string();
  }
  return std::nullopt;
}

}  // namespace

int command_compare(const CompareArgs& args) {
  std::error_code ec;
  if (args.out.empty() || (!fs::exists(args.out, ec) && !fs::create_directories(args.out, ec)) ||
      !fs::is_directory(args.out, ec)) {
    std::cerr << "error: --out " << printable(args.out) << ": not a folder and cannot be made one (for "
              << run_files::kComparePng << ")\n";
    return 2;
  }
  if (const auto foreign = foreign_picture(args.out)) {
    std::cerr << "error: " << printable(*foreign) << ": exists and is not ckptsim's (no " << run_files::kCompareScript
              << " written by ckptsim beside it); ckptsim never overwrites a file it did not write: give --out "
                 "another folder\n";
    return 2;
  }
  Judged real, simulated;
  try {
    real = judge({args.real}, args.threshold, args.interval_s);
    simulated = judge({args.simulated}, args.threshold, args.interval_s);
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 2;
  }
  if (args.json) {
    nlohmann::ordered_json out{{"real", figures_json(real)}, {"simulated", figures_json(simulated)}};
    nlohmann::ordered_json diff;
    for (const Row& row : kRows) {
      diff[row.key] = row.value(simulated.stability) - row.value(real.stability);
    }
    out["simulated_minus_real"] = diff;
    std::cout << out.dump(2) << '\n';
    return draw_or_fail(args, real, simulated, /*say=*/false);
  }
  const auto line = [](const std::string& name, const std::string& a, const std::string& b, const std::string& d) {
    return fmt::format("{:<22}{:<30}{:<30}{}\n", name, a, b, d);
  };
  std::cout << line("", "real", "simulated", "simulated - real")
            << line("input", real.input.format, simulated.input.format, "")
            << line("interval", fmt::format("{:g} s", real.input.interval_s),
                    fmt::format("{:g} s", simulated.input.interval_s), "")
            << line("intervals", fmt::format("{}", real.input.tps.size()),
                    fmt::format("{}", simulated.input.tps.size()),
                    fmt::format("{:+}", static_cast<long long>(simulated.input.tps.size()) -
                                            static_cast<long long>(real.input.tps.size())));
  for (const Row& row : kRows) {
    const double a = row.value(real.stability), b = row.value(simulated.stability);
    const std::string name = row.is_pct ? fmt::format("below {:g} tps", args.threshold) : row.name;
    std::cout << line(name, row.is_pct ? fmt::format("{:.1f}%", a) : fmt::format("{:.1f}", a),
                      row.is_pct ? fmt::format("{:.1f}%", b) : fmt::format("{:.1f}", b), difference(a, b, row.is_pct));
  }
  std::cout << line("skipped", pct_or_na(real.input.has_skipped, real.stability.skipped_pct),
                    pct_or_na(simulated.input.has_skipped, simulated.stability.skipped_pct), "")
            << line("failed", failed_or_na(real.input), failed_or_na(simulated.input), "");
  if (real.input.interval_s != simulated.input.interval_s) {
    std::cerr << "warning: the two runs have different intervals (" << real.input.interval_s << " s and "
              << simulated.input.interval_s << " s): their stability figures are not on the same terms\n";
  }
  return draw_or_fail(args, real, simulated, /*say=*/true);
}

Command add_compare(CLI::App& app) {
  auto compare = std::make_shared<CompareArgs>();
  auto* cmd =
      app.add_subcommand("compare", "A real run's stability figures beside a simulated one's, with the differences");
  cmd->add_option("real", compare->real, "The real run: pgbench -P output, an aggregate log, or a folder")->required();
  cmd->add_option("simulated", compare->simulated,
                  fmt::format("The simulated run: a run folder or its {}", run_files::kProgressCsv))
      ->required();
  cmd->add_option("--threshold", compare->threshold, "tps below which an interval counts as a stall")
      ->check(tps_threshold());
  cmd->add_option("--interval", compare->interval_s,
                  "Interval in seconds (default: inferred; a multiple of a log's own merges its intervals)")
      ->check(positive_seconds());
  cmd->add_option("--out", compare->out,
                  fmt::format("Folder for {} and {} (made if missing; default: the working folder)",
                              run_files::kComparePng, run_files::kCompareSvg));
  cmd->add_flag("--json", compare->json, "Print the figures as JSON");
  return {cmd, [compare] { return command_compare(*compare); }};
}

}  // namespace ckptsim::cli
