// `ckptsim compare`: a real run's stability figures beside a simulated one's,
// with the differences (cli/commands/judged_run.h).
#include "cli/commands/commands.h"

#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands/judged_run.h"
#include "cli/run/printable.h"

namespace ckptsim::cli {

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

std::string difference(double real, double simulated, bool is_pct) {
  const double d = simulated - real;
  if (is_pct) return fmt::format("{:+.1f} points", d);
  if (real == 0) return fmt::format("{:+.1f}", d);
  return fmt::format("{:+.1f} ({:+.1f}%)", d, 100.0 * d / real);
}

}  // namespace

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
                    pct_or_na(simulated.input.has_skipped, simulated.stability.skipped_pct), "");
  if (real.input.interval_s != simulated.input.interval_s) {
    std::cerr << "warning: the two runs have different intervals (" << real.input.interval_s << " s and "
              << simulated.input.interval_s << " s): their stability figures are not on the same terms\n";
  }
  return 0;
}

}  // namespace ckptsim::cli
