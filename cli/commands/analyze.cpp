// cli/commands/analyze.cpp
//
// `ckptsim analyze` and `ckptsim compare`: the stability figures of any run,
// real or simulated, from what it left (analysis/tps_input.h), so that a real
// pgbench run on a box can be held against its simulation on the same terms.
// What came from the user's files (names, fields, quoted in errors) is
// printed through printable(): a log line's ESC is shown, not obeyed.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/stability.h"
#include "analysis/tps_input.h"
#include "cli/commands/commands.h"
#include "cli/commands/printable.h"
#include "cli/run/run_files.h"
#include "cli/run/run_summary.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// A run folder is read by ckptsim's names for its files.
const analysis::TpsInputNames kRunFolder = {.progress = run_files::kProgressCsv,
                                            .aggregate_logs = std::string(run_files::kAggregateLogPrefix) + "*",
                                            .is_aggregate_log = &run_files::is_aggregate_log};

// A progress.csv beside a summary.json of a stopped run is partial: say so.
// nullopt when there is no readable summary.json to tell.
std::optional<bool> run_complete(const fs::path& progress_csv) {
  const auto summary_path = progress_csv.parent_path() / run_files::kSummaryJson;
  std::ifstream in(summary_path);
  if (!in) return std::nullopt;
  const auto summary = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object() || !summary.contains("complete") || !summary["complete"].is_boolean()) return std::nullopt;
  if (!summary["complete"].get<bool>()) {
    const auto stopped_by = summary.value("stopped_by", nlohmann::json("stopped"));
    std::cerr << "warning: " << printable(summary_path.string()) << " says this run was stopped before its end ("
              << printable(stopped_by.is_string() ? stopped_by.get<std::string>() : stopped_by.dump())
              << "): the figures cover only the intervals it ran\n";
  }
  return summary["complete"].get<bool>();
}

struct Judged {
  analysis::TpsInput input;
  analysis::Stability stability;
  std::optional<bool> complete;
};

Judged judge(const std::vector<fs::path>& inputs, double threshold, double interval_s) {
  Judged j{analysis::read_tps_input(kRunFolder, inputs, interval_s), {}, std::nullopt};
  const auto& c = j.input.counts;
  j.stability = analysis::compute_stability(j.input.tps, threshold, c.transactions, c.skipped, c.late);
  if (j.input.format == fmt::format("ckptsim {}", run_files::kProgressCsv)) j.complete = run_complete(j.input.files.front());
  return j;
}

nlohmann::ordered_json figures_json(const Judged& j) {
  nlohmann::ordered_json figures{{"format", j.input.format},
                                 {"interval_s", j.input.interval_s},
                                 {"intervals", j.input.tps.size()},
                                 {"transactions", j.input.counts.transactions}};
  const nlohmann::ordered_json stability = stability_json(j.stability);  // named: items() of a temporary dangles
  for (const auto& [key, value] : stability.items()) figures[key] = value;
  // What the file does not report is null, not a 0 that looks measured.
  if (!j.input.has_skipped) figures["skipped_pct"] = nullptr;
  if (!j.input.has_late) figures["late_pct"] = nullptr;
  if (j.complete) figures["complete"] = *j.complete;
  return figures;
}

std::string pct_or_na(bool known, double pct) { return known ? fmt::format("{:.3f}%", pct) : "n/a"; }

// The rows both commands print: a name and one figure per run.
struct Row {
  std::string name, key;  // key: as in summary.json's "stability"
  double (*value)(const analysis::Stability&);
  bool is_pct;
};
const Row kRows[] = {
    {"tps mean", "tps_mean", [](const analysis::Stability& s) { return s.tps_mean; }, false},
    {"tps stddev", "tps_stddev", [](const analysis::Stability& s) { return s.tps_stddev; }, false},
    {"below threshold", "pct_below_threshold", [](const analysis::Stability& s) { return s.pct_below_threshold; }, true},
    {"tps min", "tps_min", [](const analysis::Stability& s) { return s.tps_min; }, false},
    {"tps q1", "tps_q1", [](const analysis::Stability& s) { return s.tps_q1; }, false},
    {"tps median", "tps_median", [](const analysis::Stability& s) { return s.tps_median; }, false},
    {"tps q3", "tps_q3", [](const analysis::Stability& s) { return s.tps_q3; }, false},
    {"tps max", "tps_max", [](const analysis::Stability& s) { return s.tps_max; }, false},
};

std::string difference(double real, double simulated, bool is_pct) {
  const double d = simulated - real;
  if (is_pct) return fmt::format("{:+.1f} points", d);
  if (real == 0) return fmt::format("{:+.1f}", d);
  return fmt::format("{:+.1f} ({:+.1f}%)", d, 100.0 * d / real);
}

}  // namespace

int command_analyze(const AnalyzeArgs& args) {
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
  std::cout << fmt::format("input                 {} ({} s intervals)\n", j.input.format, j.input.interval_s)
            << fmt::format("intervals             {}\n", j.input.tps.size())
            << fmt::format("tps mean ± stddev     {:.1f} ± {:.1f}\n", s.tps_mean, s.tps_stddev)
            << fmt::format("below {:g} tps          {:.1f}%\n", s.threshold, s.pct_below_threshold)
            << fmt::format("min q1 median q3 max  {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}\n", s.tps_min, s.tps_q1,
                           s.tps_median, s.tps_q3, s.tps_max)
            << fmt::format("skipped / late        {} / {}\n", pct_or_na(j.input.has_skipped, s.skipped_pct),
                           pct_or_na(j.input.has_late, s.late_pct));
  return 0;
}

int command_compare(const CompareArgs& args) {
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
    return 0;
  }
  const auto line = [](const std::string& name, const std::string& a, const std::string& b, const std::string& d) {
    return fmt::format("{:<22}{:<30}{:<30}{}\n", name, a, b, d);
  };
  std::cout << line("", "real", "simulated", "simulated - real")
            << line("input", real.input.format, simulated.input.format, "")
            << line("interval", fmt::format("{:g} s", real.input.interval_s),
                    fmt::format("{:g} s", simulated.input.interval_s), "")
            << line("intervals", fmt::format("{}", real.input.tps.size()), fmt::format("{}", simulated.input.tps.size()),
                    fmt::format("{:+}", static_cast<long long>(simulated.input.tps.size()) -
                                            static_cast<long long>(real.input.tps.size())));
  for (const Row& row : kRows) {
    const double a = row.value(real.stability), b = row.value(simulated.stability);
    const std::string name = row.is_pct ? fmt::format("below {:g} tps", args.threshold) : row.name;
    std::cout << line(name, row.is_pct ? fmt::format("{:.1f}%", a) : fmt::format("{:.1f}", a),
                      row.is_pct ? fmt::format("{:.1f}%", b) : fmt::format("{:.1f}", b),
                      difference(a, b, row.is_pct));
  }
  std::cout << line("skipped", pct_or_na(real.input.has_skipped, real.stability.skipped_pct),
                    pct_or_na(simulated.input.has_skipped, simulated.stability.skipped_pct), "");
  if (real.input.interval_s != simulated.input.interval_s) {
    std::cerr << "warning: the two runs have different intervals (" << real.input.interval_s << " s and "
              << simulated.input.interval_s << " s): their stability figures are not on the same terms\n";
  }
  return 0;
}

}  // namespace ckptsim::cli
