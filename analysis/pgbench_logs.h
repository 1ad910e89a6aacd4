// analysis/pgbench_logs.h
//
// Readers of pgbench's own per-interval output, so that a real run can be
// judged with the same stability figures as a simulated one (pgbench.c,
// printProgressReport and doLog with --aggregate-interval):
//   -P lines, on stderr, among pgbench's other messages:
//     9.4-14  "progress: 5.0 s, 430.5 tps, lat 8.842 ms stddev 6.070[, lag 1.2 ms[, 3 skipped]]"
//     15+     the same with ", 0 failed" after stddev, and ", N retried, M retries"
//             at the end when --max-tries is not 1
//   with --progress-timestamp the time is epoch seconds ("1796219881.000 s");
//   aggregate log lines, one file per thread (pgbench_log.PID, .PID.1, ...):
//     9.3-14  interval_start num_tx sum_lat sum_lat2 min_lat max_lat
//             [sum_lag sum_lag2 min_lag max_lag [skipped]]
//     15+     15 columns, the unused ones 0, skipped at the same place, then
//             retried retries serialization_failures deadlock_failures.
// Lines that are not -P lines (the banner, "starting vacuum...", the final
// summary when stdout and stderr were captured together) are passed over.
//
// Left out: latencies (the stability figures judge tps), and a final partial
// aggregate interval is taken as a whole one (pgbench does not say how long it was).
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <vector>

#include "analysis/tps_series.h"

namespace ckptsim::analysis {

struct PgbenchReadings {
  std::vector<TimedTps> readings;  // seconds from the run's start
  double interval_s = 0;           // what the log was written at (-P, --aggregate-interval): most_common_step
  std::int64_t transactions = 0;
  std::int64_t skipped = 0;
  bool has_skipped = false;  // the file reports skipped transactions (-R with -L)
  std::int64_t failed = 0;   // 15+: ", N failed" of -P; serialization_failures + deadlock_failures of the log
  bool has_failed = false;   // the file reports failures (pgbench 15+)
  std::string format;        // e.g. "pgbench -P log (15+)"
  TimeLabel time_label = TimeLabel::kNearestGridPoint;  // -P lines: kPrintedAfterEnd
};

// pgbench -P output (analysis/progress_line.h). epoch times
// (--progress-timestamp) are made relative to the run's start, one interval
// before the first line (interval_s, or the log's own when 0). Throws
// "<file>:<line>: ..." for a "progress:" line of no known shape or with a
// number out of range, and for a file with no -P line.
PgbenchReadings read_progress_log(std::istream& in, const std::filesystem::path& name, double interval_s = 0);

// The aggregate logs of one run, one per thread: intervals with the same
// interval_start are summed, and divided by interval_s (the log's own when 0)
// for their tps. Throws "<file>:<line>: ..." for a line that is not 6, 10, 11
// or 15 numbers, or files of different formats.
PgbenchReadings read_aggregate_logs(const std::vector<std::filesystem::path>& files, double interval_s = 0);

// The same over open streams (fuzz_csv reads them from memory).
struct NamedLog {
  std::filesystem::path name;
  std::istream* in;
};
PgbenchReadings read_aggregate_streams(const std::vector<NamedLog>& logs, double interval_s = 0);

// Whether a first line looks like an aggregate log's: 6 or more whole numbers.
bool looks_like_aggregate_line(const std::string& line);

// Whether the stream holds a pgbench -P line (read up to the first one).
bool holds_progress_line(std::istream& in, const std::filesystem::path& name);

}  // namespace ckptsim::analysis
