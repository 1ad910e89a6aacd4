#include "cli/run/published_verdict.h"

#include <cmath>

#include <fmt/format.h>

namespace ckptsim::cli {

std::string published_verdict(const scenarios::Published& published, const std::vector<std::string>& point_names,
                              const std::vector<analysis::Stability>& stabilities) {
  std::string line;
  for (const scenarios::PublishedPoint& p : published.points) {
    for (std::size_t i = 0; i < point_names.size() && i < stabilities.size(); ++i) {
      if (point_names[i] != p.point) continue;
      const double tps = stabilities[i].tps_mean;
      const double off_pct = p.tps > 0 ? 100.0 * std::abs(tps - p.tps) / p.tps : 0;
      const std::string how = p.tps > 0 && off_pct <= published.band_pct
                                  ? fmt::format("within {:g}%", published.band_pct)
                                  : fmt::format("{:.1f}x the published", p.tps > 0 ? tps / p.tps : 0);
      line += fmt::format("{}{} {} ({:.0f} vs {:g} tps)", line.empty() ? "" : "; ", p.name, how, tps, p.tps);
    }
  }
  if (line.empty()) return "";
  return fmt::format("{} against the published: {}", published.label, line);
}

}  // namespace ckptsim::cli
