#include "models/pgbench/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ckptsim::pgbench {

int LatencyHistogram::bucket_of(std::int64_t micros) {
  if (micros < 1) return 0;
  const auto u = static_cast<std::uint64_t>(micros);
  const int octave = std::bit_width(u) - 1;  // 2^octave <= micros < 2^(octave+1)
  // Position inside the octave, in kSubBuckets equal steps.
  const std::uint64_t offset = u - (std::uint64_t{1} << octave);
  const int sub = octave >= 6 ? static_cast<int>(offset >> (octave - 6)) : static_cast<int>(offset << (6 - octave));
  return std::min(octave * kSubBuckets + sub, kSubBuckets * kOctaves - 1);
}

double LatencyHistogram::upper_bound_micros(int bucket) {
  const int octave = bucket / kSubBuckets, sub = bucket % kSubBuckets;
  return std::ldexp(1.0 + (sub + 1.0) / kSubBuckets, octave);
}

void LatencyHistogram::add(sim::Duration latency) {
  ++buckets_[static_cast<std::size_t>(bucket_of(latency / sim::kMicrosecond))];
  ++count_;
  max_ = std::max(max_, latency);
}

void LatencyHistogram::clear() {
  buckets_.fill(0);
  count_ = 0;
  max_ = 0;
}

double LatencyHistogram::percentile_ms(double p) const {
  if (count_ == 0) return 0.0;
  const auto rank = static_cast<std::int64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
  std::int64_t seen = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    seen += buckets_[b];
    if (seen >= std::max<std::int64_t>(rank, 1))
      return std::min(upper_bound_micros(static_cast<int>(b)) / 1000.0, max_ms());
  }
  return max_ms();
}

}  // namespace ckptsim::pgbench
