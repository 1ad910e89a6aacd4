// models/pgbench/latency_histogram.h
//
// Latency percentiles per progress interval (p50 / p90 / p99 / max) and over
// the whole run (p50 / p90 / p99 / p99.9 in summary.json), which pgbench
// itself does not print but users ask for (see docs/reference/formats.md, 2.4).
// HdrHistogram's layout with 6 bits of sub-bucket precision: 64 linear
// buckets per power of two, from 1 µs to about 10^5 s. A latency is counted
// in whole µs; a percentile (the smallest value with at least p % of the
// samples at or below it, HdrHistogram's getValueAtPercentile) is reported as
// its bucket's upper bound, capped at the exact maximum, so it lies between
// the true value less 1 µs and 1/64 (1.6 %) above it. Fixed size, no
// allocation per sample.
#pragma once

#include <array>
#include <cstdint>

#include "sim/time.h"

namespace ckptsim::pgbench {

class LatencyHistogram {
 public:
  void add(sim::Duration latency);
  void clear();
  std::int64_t count() const { return count_; }
  // The p-th percentile (0 < p <= 100) in ms; 0 when empty.
  double percentile_ms(double p) const;
  double max_ms() const { return sim::to_millis(max_); }

 private:
  static constexpr int kSubBuckets = 64;  // per power of two
  static constexpr int kOctaves = 37;     // 1 µs .. 2^37 µs
  static int bucket_of(std::int64_t micros);
  static double upper_bound_micros(int bucket);

  std::array<std::int64_t, kSubBuckets * kOctaves> buckets_{};
  std::int64_t count_ = 0;
  sim::Duration max_ = 0;
};

}  // namespace ckptsim::pgbench
