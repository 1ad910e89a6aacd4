// analysis/stability.cpp
//
// Mean and stddev through Eigen (one vectorised pass each over the series);
// quartiles from one sorted copy. Conventions are documented in stability.h.
#include "analysis/stability.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <vector>

namespace ckptsim::analysis {

namespace {

// Type-7 quantile of an ascending, non-empty series.
double quantile_type7(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

double percent_of(std::int64_t part, std::int64_t whole) {
  if (whole <= 0) return 0;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

Stability compute_stability(std::span<const double> tps_per_interval, double threshold, std::int64_t transactions,
                            std::int64_t skipped, std::int64_t late) {
  Stability s;
  s.threshold = threshold;
  // pgbench divides both by every transaction it scheduled: processed + skipped.
  s.skipped_pct = percent_of(skipped, transactions + skipped);
  s.late_pct = percent_of(late, transactions + skipped);
  if (tps_per_interval.empty()) return s;

  const Eigen::Map<const Eigen::ArrayXd> tps(tps_per_interval.data(),
                                             static_cast<Eigen::Index>(tps_per_interval.size()));
  s.tps_mean = tps.mean();
  s.tps_stddev = std::sqrt((tps - s.tps_mean).square().mean());
  const auto below = (tps < threshold).count();
  s.pct_below_threshold = percent_of(below, tps.size());

  std::vector<double> sorted(tps_per_interval.begin(), tps_per_interval.end());
  std::sort(sorted.begin(), sorted.end());
  s.tps_min = sorted.front();
  s.tps_q1 = quantile_type7(sorted, 0.25);
  s.tps_median = quantile_type7(sorted, 0.5);
  s.tps_q3 = quantile_type7(sorted, 0.75);
  s.tps_max = sorted.back();
  return s;
}

}  // namespace ckptsim::analysis
