#include "analysis/interval_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ckptsim::analysis {

std::size_t intervals_per_merge(double own_s, double interval_s, std::size_t readings,
                                const std::filesystem::path& file) {
  if (readings < 2 || !(own_s > 0) || !(interval_s > own_s * (1 + 1e-9))) return 0;
  const double ratio = interval_s / own_s;
  const double whole = std::round(ratio);
  if (std::abs(ratio - whole) > 1e-6 * ratio) {
    throw std::runtime_error(fmt::format(
        "{}: --interval {:g} is not a whole number of the file's {:g} s intervals (expected a multiple of {:g}, "
        "e.g. {:g})",
        file.string(), interval_s, own_s, own_s, whole < 1 ? own_s : whole * own_s));
  }
  return static_cast<std::size_t>(whole);
}

std::vector<double> merge_intervals(const std::vector<double>& series, std::size_t k) {
  if (k <= 1) return series;
  std::vector<double> merged;
  merged.reserve(series.size() / k + 1);
  for (std::size_t start = 0; start < series.size(); start += k) {
    const std::size_t end = std::min(series.size(), start + k);
    double sum = 0;
    for (std::size_t i = start; i < end; ++i) sum += series[i];
    merged.push_back(sum / static_cast<double>(end - start));
  }
  return merged;
}

}  // namespace ckptsim::analysis
