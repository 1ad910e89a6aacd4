// `ckptsim analyze`: the stability figures of one run (cli/commands/judged_run.h).
#include "cli/commands/commands.h"

#include <iostream>

#include <fmt/format.h>

#include "cli/commands/judged_run.h"
#include "cli/run/printable.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

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
  std::cout << fmt::format("input                 {} ({:g} s intervals)\n", j.input.format, j.input.interval_s)
            << fmt::format("intervals             {}\n", j.input.tps.size())
            << fmt::format("tps mean ± stddev     {:.1f} ± {:.1f}\n", s.tps_mean, s.tps_stddev)
            << fmt::format("below {:g} tps          {:.1f}%\n", s.threshold, s.pct_below_threshold)
            << fmt::format("min q1 median q3 max  {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}\n", s.tps_min, s.tps_q1,
                           s.tps_median, s.tps_q3, s.tps_max)
            << fmt::format("skipped / late        {} / {}\n", pct_or_na(j.input.has_skipped, s.skipped_pct),
                           pct_or_na(j.input.has_late, s.late_pct));
  return 0;
}

}  // namespace ckptsim::cli
