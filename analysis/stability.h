// analysis/stability.h
//
// The stability figures of one run, computed over its per-interval tps series
// (pgbench -P 1): the numbers quoted on pgsql-hackers when comparing checkpoint
// behaviours (Fabien Coelho's "% of seconds under 10 tps" and quartiles).
//
// Conventions, chosen so that a reader can recompute them with numpy:
// - tps_mean and tps_stddev: mean and *population* standard deviation over the
//   intervals (numpy.std with ddof=0), each interval weighted equally;
// - quartiles by linear interpolation between order statistics (numpy's
//   default, Hyndman & Fan "type 7"): q(p) at position (n-1)p of the sorted series;
// - pct_below_threshold: percent of intervals with tps strictly less than the
//   threshold (an interval at exactly 10 tps is not "below 10");
// - skipped_pct = 100*skipped/(transactions+skipped) and
//   late_pct = 100*late/(transactions+skipped): pgbench's own denominators,
//   where "transactions" counts those processed (late ones included);
// - an empty series, or zero transactions, gives zeros: no NaN anywhere.
//
// Left out: latency statistics (pgbench's own summary carries them) and any
// trimming of warm-up intervals (the caller passes the series it wants judged).
#pragma once

#include <cstdint>
#include <span>

namespace ckptsim::analysis {

struct Stability {
  double tps_mean = 0;
  double tps_stddev = 0;
  double threshold = 0;            // tps; the pgsql-hackers figure uses 10
  double pct_below_threshold = 0;  // percent of intervals, 0..100
  double tps_min = 0;
  double tps_q1 = 0;
  double tps_median = 0;
  double tps_q3 = 0;
  double tps_max = 0;
  double skipped_pct = 0;  // percent of scheduled transactions skipped (-R with -L)
  double late_pct = 0;     // percent finished beyond the latency limit (-L)
};

Stability compute_stability(std::span<const double> tps_per_interval, double threshold, std::int64_t transactions,
                            std::int64_t skipped, std::int64_t late);

}  // namespace ckptsim::analysis
