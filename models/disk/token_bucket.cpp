// models/disk/token_bucket.cpp
#include "models/disk/token_bucket.h"

#include <algorithm>
#include <cmath>

namespace ckptsim::disk {

namespace {
constexpr double kNsPerSecond = 1e9;
sim::Time at_or_after(double ns) { return static_cast<sim::Time>(std::ceil(ns)); }
}  // namespace

TokenBucket::TokenBucket(const TokenBucketConfig& c, sim::Time now) : credited_at_(now) {
  if (c.baseline <= 0) return;
  const bool bursts = c.burst > c.baseline && c.credits > 0;
  rate_ = bursts ? c.burst : c.baseline;
  if (!bursts) return;
  capacity_ = c.credits;
  refill_per_ns_ = (c.refill > 0 ? c.refill : c.baseline) / kNsPerSecond;
  credits_ = capacity_ * std::clamp(c.start, 0.0, 1.0);
}

double TokenBucket::credits_at(sim::Time now) const {
  return std::min(capacity_, credits_ + refill_per_ns_ * static_cast<double>(now - credited_at_));
}

sim::Time TokenBucket::earliest(sim::Time now, double cost) const {
  if (!limited()) return now;
  sim::Time t = std::max(now, at_or_after(next_free_ns_ - static_cast<double>(kPacingTolerance)));
  if (bursting()) {
    const double short_by = std::min(cost, capacity_) - credits_at(t);
    if (short_by > 0) t += at_or_after(short_by / refill_per_ns_);
  }
  return t;
}

void TokenBucket::take(sim::Time at, double cost) {
  if (!limited()) return;
  next_free_ns_ = std::max(next_free_ns_, static_cast<double>(at)) + cost / rate_ * kNsPerSecond;
  if (bursting()) {
    credits_ = credits_at(at) - cost;  // may dip below 0 by a request larger than the bucket
    credited_at_ = at;
  }
}

double TokenBucket::balance_pct(sim::Time now) const {
  if (!bursting()) return 100.0;
  return std::max(0.0, credits_at(now)) / capacity_ * 100.0;
}

}  // namespace ckptsim::disk
