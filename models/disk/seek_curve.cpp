// models/disk/seek_curve.cpp
#include "models/disk/seek_curve.h"

#include <cmath>

namespace ckptsim::disk {

SeekCurve::SeekCurve(sim::Duration single, sim::Duration average, sim::Duration full, std::int64_t cylinders)
    : t1_(sim::to_millis(single)), n_(static_cast<double>(cylinders > 1 ? cylinders : 2)) {
  const double ta = sim::to_millis(average);
  const double tf = sim::to_millis(full);
  // Distances count from one cylinder (d - 1), so the stroke the formula
  // spans is N - 1: t(N) is then exactly tf.
  const double span = n_ - 1;
  a_ = (-10 * t1_ + 15 * ta - 5 * tf) / (3 * std::sqrt(span));
  b_ = (7 * t1_ - 15 * ta + 8 * tf) / (3 * span);
  if (a_ >= 0 && b_ >= 0) return;

  // Two-part fallback. For a square-root slope s: the short part passes t1 at
  // d = 1, the long part joins it at d0 and reaches tf at N. The mean is
  // increasing in s, so bisect s until it equals ta.
  two_part_ = true;
  d0_ = n_ / 5;
  const auto fit = [&](double slope) {
    a_ = t1_ - slope;
    b_ = slope;
    const double at_d0 = a_ + b_ * std::sqrt(d0_);
    e_ = (tf - at_d0) / (n_ - d0_);
    c_ = tf - e_ * n_;
  };
  double lo = 0, hi = (tf - t1_) / (std::sqrt(d0_) - 1);  // hi: the short part alone reaches tf at d0
  for (int i = 0; i < 60; ++i) {
    const double mid = (lo + hi) / 2;
    fit(mid);
    (mean_over_random_pairs() < ta ? lo : hi) = mid;
  }
  fit((lo + hi) / 2);
}

double SeekCurve::curve(double d) const {
  if (d <= 0) return 0;
  if (!two_part_) return t1_ + a_ * std::sqrt(d - 1) + b_ * (d - 1);
  return d < d0_ ? a_ + b_ * std::sqrt(d) : c_ + e_ * d;
}

// For uniform start and end cylinders, the distance u = d / N has density
// 2 (1 - u); a midpoint sum is exact enough for the fit.
double SeekCurve::mean_over_random_pairs() const {
  constexpr int kSteps = 4000;
  double sum = 0;
  for (int i = 0; i < kSteps; ++i) {
    const double u = (i + 0.5) / kSteps;
    sum += curve(u * n_) * 2 * (1 - u) / kSteps;
  }
  return sum;
}

double SeekCurve::millis(std::int64_t distance) const { return curve(static_cast<double>(distance)); }

sim::Duration SeekCurve::operator()(std::int64_t distance) const {
  return std::llround(millis(distance) * sim::kMillisecond);
}

}  // namespace ckptsim::disk
