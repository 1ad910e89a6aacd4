// models/pgbench/transaction_stats.h
//
// pgbench's per-transaction accounting (processXactStats and the StatsData
// sums in pgbench.c): a transaction counts in the interval in which it
// completes; latency is measured from its scheduled start under -R (so lag
// is included), lag is the wait from the schedule to the actual start.
// Skipped transactions (-L with -R: already later than the limit when their
// turn comes) are counted but have no latency; late ones finished beyond the
// limit.
//
// Kept as sums, as pgbench does, so a progress row costs O(1): mean and
// stddev come from sum and sum of squares.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "sim/time.h"

namespace ckptsim::pgbench {

struct TransactionSums {
  std::int64_t transactions = 0;
  std::int64_t skipped = 0;
  std::int64_t late = 0;
  double latency_sum_ms = 0;
  double latency_sum2_ms = 0;
  double lag_sum_ms = 0;
  double latency_max_ms = 0;

  void add(sim::Duration latency, sim::Duration lag, bool is_late) {
    const double l = sim::to_millis(latency);
    ++transactions;
    latency_sum_ms += l;
    latency_sum2_ms += l * l;
    lag_sum_ms += sim::to_millis(lag);
    latency_max_ms = std::max(latency_max_ms, l);
    if (is_late) ++late;
  }
  void add_skipped() { ++skipped; }

  double latency_avg_ms() const { return transactions ? latency_sum_ms / transactions : 0.0; }
  // pgbench: sqrt(sum2/cnt - avg^2), clamped at 0 against rounding.
  double latency_stddev_ms() const {
    if (!transactions) return 0.0;
    const double avg = latency_avg_ms();
    return std::sqrt(std::max(0.0, latency_sum2_ms / transactions - avg * avg));
  }
  double lag_avg_ms() const { return transactions ? lag_sum_ms / transactions : 0.0; }
};

// The measured run's totals and the current progress interval's sums.
class TransactionStats {
 public:
  void record(sim::Duration latency, sim::Duration lag, bool is_late) {
    total_.add(latency, lag, is_late);
    interval_.add(latency, lag, is_late);
  }
  void record_skipped() {
    total_.add_skipped();
    interval_.add_skipped();
  }
  // Hands back the interval just closed and starts a new one.
  TransactionSums take_interval() { return std::exchange(interval_, TransactionSums{}); }
  const TransactionSums& total() const { return total_; }

 private:
  TransactionSums total_;
  TransactionSums interval_;
};

}  // namespace ckptsim::pgbench
