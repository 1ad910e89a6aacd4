// models/disk/write_amplification.cpp
#include "models/disk/write_amplification.h"

#include <cmath>

namespace ckptsim::disk {

double lambert_w0(double x) {
  const double e = std::exp(1.0);
  if (x <= -1 / e) return -1;
  // Start from the series at the branch point, then Halley's iteration.
  const double p = std::sqrt(2 * (e * x + 1));
  double w = -1 + p - p * p / 3;
  for (int i = 0; i < 50; ++i) {
    const double ew = std::exp(w);
    const double f = w * ew - x;
    const double step = f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2));
    w -= step;
    if (std::fabs(step) < 1e-14) break;
  }
  return w;
}

double steady_state_write_amplification(double over_provisioning) {
  const double alpha = 1 + over_provisioning;
  return alpha / (alpha + lambert_w0(-alpha * std::exp(-alpha)));
}

}  // namespace ckptsim::disk
