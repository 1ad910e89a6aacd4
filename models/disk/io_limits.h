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
#include <cstdint>

#include "models/disk/token_bucket.h"
#include "sim/time.h"

namespace ckptsim::disk {

// The settings of one IoLimits, in the providers' units: a volume's
// (volume_*, volume_config.h) or the instance's (hardware.instance_*, shared by
// its volumes). 0 turns a limit off.
struct IoLimitsConfig {
  std::int64_t iops = 0;           // baseline (provisioned) operations per second
  std::int64_t burst_iops = 0;     // ceiling while I/O credits last
  std::int64_t burst_credits = 0;  // I/O credit bucket, in operations (gp2: 5.4 M)
  std::int64_t iops_refill = 0;    // credits per second; 0 = iops
  sim::Bytes mb_s = 0;             // baseline throughput, bytes per second
  sim::Bytes burst_mb_s = 0;       // ceiling while throughput credits last
  sim::Bytes burst_bytes = 0;      // throughput credit bucket, in bytes
  sim::Bytes mb_s_refill = 0;      // bytes per second into it; 0 = mb_s
  double burst_balance = 100;      // both buckets' fill at the start, percent

  bool limited() const { return iops > 0 || mb_s > 0; }
  // The two buckets: operations as the provider counts them, and bytes.
  TokenBucketConfig iops_bucket() const {
    return bucket(static_cast<double>(iops), static_cast<double>(burst_iops), static_cast<double>(burst_credits),
                  static_cast<double>(iops_refill));
  }
  TokenBucketConfig bytes_bucket() const {
    return bucket(static_cast<double>(mb_s), static_cast<double>(burst_mb_s), static_cast<double>(burst_bytes),
                  static_cast<double>(mb_s_refill));
  }

 private:
  TokenBucketConfig bucket(double baseline, double burst, double credits, double refill) const {
    return {.baseline = baseline, .burst = burst, .credits = credits, .refill = refill, .start = burst_balance / 100.0};
  }
};

class IoLimits {
 public:
  IoLimits(const IoLimitsConfig& config, sim::Time now)
      : iops_(config.iops_bucket(), now), bytes_(config.bytes_bucket(), now) {}

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
