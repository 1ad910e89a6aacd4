// models/pgbench/report.h
//
// pgbench's own output formats (pgbench.c: printProgressReport,
// printResults, doLog with --aggregate-interval), so that the tools people
// already use on pgbench output read ckptsim's:
//   -P line   9.4-14: "progress: 5.0 s, 430.5 tps, lat 8.842 ms stddev 6.070[, lag 1.2 ms][, 3 skipped]"
//             15+:    the same with ", 0 failed" after stddev
//             an empty interval: "lat -nan ms stddev -nan" (and "lag -nan ms")
//             up to 9.6, "lat 0.000 ms stddev 0.000" from 10
//   summary   printResults, by release (read in 9.6's and 15's pgbench.c; the
//             steps between them from the release notes):
//     9.0-9.5  "transaction type: TPC-B (sort of)" (no "<builtin: >"),
//              "latency average: X ms" / "latency stddev: X ms" with -P (9.4+)
//     9.6-13   "<builtin: ...>", "latency average = X ms", skipped and late as
//              "N (P %)" over processed + skipped, two tps lines
//              "(including connections establishing)" / "(excluding ...)"
//     14       "initial connection time = X ms" and one
//              "tps = X (without initial connection time)"
//     15+      "maximum number of tries", "number of failed transactions",
//              late as "N/M (P%)" over processed, no space before "%"
//   aggregate --aggregate-interval lines, latencies in µs: up to 14
//             "start num_tx sum sum2 min max" + 4 lag columns with -R + skipped
//             with -R and -L; 15+ always 15 columns, the unused ones 0.
// The version is that of the PostgreSQL whose pgbench is imitated, as
// version_num gives it (906 for 9.6, 1500 for 15).
#pragma once

#include <string>

#include "models/pgbench/pgbench_config.h"
#include "models/pgbench/transaction_stats.h"

namespace ckptsim::pgbench {

std::string progress_line(int major_version, double elapsed_s, double tps, const TransactionSums& interval,
                          const PgbenchConfig& config);

std::string final_summary(int version_num, const PgbenchConfig& config, const TransactionSums& total,
                          double duration_s);

// interval_start is in epoch seconds.
std::string aggregate_line(int version_num, std::int64_t interval_start, const TransactionSums& window,
                           const PgbenchConfig& config);

// "9.6" -> 9, "15" -> 15 (the major version as pgbench compares it: 9.6 counts as 9).
int major_version(const std::string& version);
// "9.6" -> 906, "9.6.24" -> 906, "15" -> 1500, "15.4" -> 1500: the release, minor versions aside.
int version_num(const std::string& version);

}  // namespace ckptsim::pgbench
