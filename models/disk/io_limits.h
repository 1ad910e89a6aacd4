// models/disk/io_limits.h
//
// A pair of token buckets, one for operations per second and one for bytes
// per second, as a volume type or an instance type states its limits (AWS:
// "IOPS" and "throughput"; Azure: "IOPS" and "MBps"). A request goes when
// both allow it, and spends from both. A volume owns one pair; an instance
// owns another that all its volumes share (AWS "Amazon EBS-optimized
// instances": the instance's EBS IOPS and bandwidth cap the sum over its
// volumes).
#pragma once

#include <algorithm>

#include "models/disk/token_bucket.h"
#include "sim/time.h"

namespace ckptsim::disk {

struct IoLimitsConfig {
  TokenBucketConfig iops;   // units: operations as the provider counts them
  TokenBucketConfig bytes;  // units: bytes

  bool limited() const { return iops.baseline > 0 || bytes.baseline > 0; }
};

class IoLimits {
 public:
  IoLimits(const IoLimitsConfig& config, sim::Time now) : iops_(config.iops, now), bytes_(config.bytes, now) {}

  sim::Time earliest(sim::Time now, double operations, double bytes) const {
    return std::max(iops_.earliest(now, operations), bytes_.earliest(now, bytes));
  }
  void take(sim::Time at, double operations, double bytes) {
    iops_.take(at, operations);
    bytes_.take(at, bytes);
  }
  // The emptier bucket's fill (the one that runs out first), percent.
  double balance_pct(sim::Time now) const { return std::min(iops_.balance_pct(now), bytes_.balance_pct(now)); }

 private:
  TokenBucket iops_;
  TokenBucket bytes_;
};

}  // namespace ckptsim::disk
