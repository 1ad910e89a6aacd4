// models/pgbench/report.h
//
// pgbench's own output formats (pgbench.c: printProgressReport,
// printResults, doLog with --aggregate-interval), so that the tools people
// already use on pgbench output read ckptsim's:
//   -P line   9.4-14: "progress: 5.0 s, 430.5 tps, lat 8.842 ms stddev 6.070[, lag 1.2 ms][, 3 skipped]"
//             15+:    the same with ", 0 failed" after stddev
//   summary   pgbench 15's final report (transaction type ... tps = ...)
//   aggregate pgbench 15's 15-column --aggregate-interval line, latencies in µs
// The version is the PostgreSQL major version whose pgbench is imitated.
#pragma once

#include <string>

#include "models/pgbench/pgbench_config.h"
#include "models/pgbench/transaction_stats.h"

namespace ckptsim::pgbench {

std::string progress_line(int major_version, double elapsed_s, double tps, const TransactionSums& interval,
                          const PgbenchConfig& config);

std::string final_summary(const PgbenchConfig& config, const TransactionSums& total, double duration_s);

// interval_start is in epoch seconds.
std::string aggregate_line(std::int64_t interval_start, const TransactionSums& window);

// "9.6" -> 9, "15" -> 15 (the major version as pgbench compares it: 9.6 counts as 9).
int major_version(const std::string& version);

}  // namespace ckptsim::pgbench
