// models/pgbench/transaction_stats.h
//
// pgbench's per-transaction accounting (processXactStats and the StatsData
// sums of pgbench.c): a transaction counts in the interval in which it
// completes; under -R its latency is measured from its scheduled start (so
// the schedule lag is included) and lag is the wait from the schedule to the
// actual start. Skipped transactions (-R with -L: already later than the
// limit when their turn comes) are counted but have no latency; late ones
// finished beyond the limit.
//
// Kept as sums, as pgbench does, so a progress row costs O(1): mean and
// stddev come from the sum and the sum of squares. Three windows run side by
// side: the whole run (with a latency histogram for its percentiles), the
// current progress interval (with its own histogram) and the current
// --aggregate-interval, kept per pgbench thread because pgbench writes one
// aggregate log per thread.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "models/pgbench/latency_histogram.h"
#include "sim/time.h"

namespace ckptsim::pgbench {

struct TransactionSums {
  std::int64_t transactions = 0;
  std::int64_t skipped = 0;
  std::int64_t late = 0;
  double latency_sum_ms = 0;
  double latency_sum2_ms = 0;
  double lag_sum_ms = 0;
  double lag_sum2_ms = 0;
  sim::Duration latency_min = std::numeric_limits<sim::Duration>::max();
  sim::Duration latency_max = 0;
  sim::Duration lag_min = std::numeric_limits<sim::Duration>::max();
  sim::Duration lag_max = 0;

  void add(sim::Duration latency, sim::Duration lag, bool is_late) {
    const double l = sim::to_millis(latency), g = sim::to_millis(lag);
    ++transactions;
    latency_sum_ms += l;
    latency_sum2_ms += l * l;
    lag_sum_ms += g;
    lag_sum2_ms += g * g;
    latency_min = std::min(latency_min, latency);
    latency_max = std::max(latency_max, latency);
    lag_min = std::min(lag_min, lag);
    lag_max = std::max(lag_max, lag);
    if (is_late) ++late;
  }
  void add_skipped() { ++skipped; }
  // What was added since `earlier`, an earlier copy of the same sums, as
  // pgbench's progress report subtracts its `last` snapshot. Minimum and
  // maximum cannot be subtracted: they are left unset.
  TransactionSums since(const TransactionSums& earlier) const {
    TransactionSums d;
    d.transactions = transactions - earlier.transactions;
    d.skipped = skipped - earlier.skipped;
    d.late = late - earlier.late;
    d.latency_sum_ms = latency_sum_ms - earlier.latency_sum_ms;
    d.latency_sum2_ms = latency_sum2_ms - earlier.latency_sum2_ms;
    d.lag_sum_ms = lag_sum_ms - earlier.lag_sum_ms;
    d.lag_sum2_ms = lag_sum2_ms - earlier.lag_sum2_ms;
    return d;
  }

  double latency_avg_ms() const { return transactions ? latency_sum_ms / transactions : 0.0; }
  // pgbench: sqrt(sum2/cnt - avg^2), clamped at 0 against rounding.
  double latency_stddev_ms() const {
    if (!transactions) return 0.0;
    const double avg = latency_avg_ms();
    return std::sqrt(std::max(0.0, latency_sum2_ms / transactions - avg * avg));
  }
  double lag_avg_ms() const { return transactions ? lag_sum_ms / transactions : 0.0; }
  double latency_max_ms() const { return sim::to_millis(latency_max); }
  double lag_max_ms() const { return sim::to_millis(lag_max); }
};

class TransactionStats {
 public:
  explicit TransactionStats(std::size_t threads = 1) : aggregates_(std::max<std::size_t>(threads, 1)) {}

  // thread: the pgbench thread whose client ran the transaction.
  void record(sim::Duration latency, sim::Duration lag, bool is_late, std::size_t thread = 0) {
    total_.add(latency, lag, is_late);
    interval_.add(latency, lag, is_late);
    aggregates_.at(thread).add(latency, lag, is_late);
    histogram_.add(latency);
    run_histogram_.add(latency);
  }
  void record_skipped(std::size_t thread = 0) {
    total_.add_skipped();
    interval_.add_skipped();
    aggregates_.at(thread).add_skipped();
  }
  // The progress interval just closed (with its latency histogram); starts a new one.
  TransactionSums take_interval() { return std::exchange(interval_, TransactionSums{}); }
  const LatencyHistogram& interval_histogram() const { return histogram_; }
  void clear_interval_histogram() { histogram_.clear(); }
  // A thread's --aggregate-interval window just closed; starts a new one.
  TransactionSums take_aggregate(std::size_t thread = 0) {
    return std::exchange(aggregates_.at(thread), TransactionSums{});
  }
  std::size_t threads() const { return aggregates_.size(); }
  const TransactionSums& total() const { return total_; }
  const LatencyHistogram& total_histogram() const { return run_histogram_; }

 private:
  TransactionSums total_;
  TransactionSums interval_;
  std::vector<TransactionSums> aggregates_;  // one per pgbench thread
  LatencyHistogram histogram_;
  LatencyHistogram run_histogram_;
};

}  // namespace ckptsim::pgbench
