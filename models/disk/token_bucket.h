// models/disk/token_bucket.h
//
// One rate limit of a cloud block volume or of the instance in front of it:
// a baseline rate, optionally a burst ceiling fed by a bucket of credits, the
// way the providers document their volumes:
//   - AWS EBS, "Amazon EBS General Purpose SSD volumes" (gp2 I/O credits and
//     burst performance): the bucket holds 5.4 million I/O credits, starts
//     full, fills at the baseline (3 IOPS per GiB) and lets the volume run at
//     up to 3,000 IOPS while it has credits; empty, the volume runs at its
//     baseline. BurstBalance (CloudWatch) is the bucket's fill in percent.
//   - Azure, "Managed disk bursting" (credit-based bursting of premium SSDs up
//     to 512 GiB): credits accrue while the disk runs below its provisioned
//     target and are spent above it, up to 3,500 IOPS and 170 MB/s; a full
//     bucket lasts 30 minutes at the burst rate.
//   - AWS, "Amazon EBS-optimized instances": an instance's EBS bandwidth and
//     IOPS have a baseline and a maximum it can burst to for 30 minutes once
//     every 24 hours (a slower refill than the baseline).
// Both read as: spending one credit per unit (operation or byte), refilling at
// `refill` per second up to `credits`, and pacing units at `burst` per second
// while credits last, at the refill rate once they are gone. Below the
// baseline the balance does not fall (refill = baseline) or fills.
//
// The pacing is a virtual clock (GCRA, the ATM cell-rate algorithm): a unit
// may go when the previous ones have had their 1/rate each, less a
// tolerance of kPacingTolerance, so a large request delays the next by its
// cost and a short lull leaves that much room for the next requests. The
// providers document no sub-second behaviour (CloudWatch reports whole
// seconds or minutes); without any tolerance, two clocks (IOPS and
// throughput) held requests well below both caps under random arrivals, as
// no metered service does. 10 ms (30 operations of a gp3 volume) is our
// choice, not a documented figure.
#pragma once

#include "sim/time.h"

namespace ckptsim::disk {

inline constexpr sim::Duration kPacingTolerance = 10 * sim::kMillisecond;

struct TokenBucketConfig {
  double baseline = 0;  // units per second; 0: no limit
  double burst = 0;     // ceiling while credits last; <= baseline: no bursting
  double credits = 0;   // bucket size in units; 0: no bursting
  double refill = 0;    // units per second into the bucket; 0: the baseline
  double start = 1.0;   // the bucket's fill at the start, 0..1
};

class TokenBucket {
 public:
  TokenBucket(const TokenBucketConfig& config, sim::Time now);

  bool limited() const { return rate_ > 0; }
  bool bursting() const { return capacity_ > 0; }
  // The earliest time, not before `now`, at which `cost` units may go.
  sim::Time earliest(sim::Time now, double cost) const;
  // Spends `cost` units at `at` (the time earliest() gave, or later).
  void take(sim::Time at, double cost);
  // The bucket's fill at `now` in percent (BurstBalance); 100 without one.
  double balance_pct(sim::Time now) const;

 private:
  double credits_at(sim::Time now) const;

  double rate_ = 0;      // pacing rate: the burst ceiling, or the baseline without bursting
  double capacity_ = 0;  // 0: no credit bucket
  double refill_per_ns_ = 0;
  double credits_ = 0;  // as of credited_at_
  sim::Time credited_at_ = 0;
  double next_free_ns_ = 0;  // when the next unit may go at the pacing rate
};

}  // namespace ckptsim::disk
