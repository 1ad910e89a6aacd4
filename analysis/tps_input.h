// analysis/tps_input.h
//
// One run's per-interval tps, from whichever file holds it: ckptsim's
// progress.csv, a real pgbench -P log (its stderr), or a pgbench aggregate
// log (one file per thread, merged). The kind is told by the content, not the
// name: a first line of whole numbers is an aggregate log, a "progress: "
// line makes a -P log, anything else must be a CSV with time_s and tps.
// A folder stands for its progress.csv (a ckptsim run folder) or else its
// pgbench_log.* files (the aggregate logs a real run left).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "analysis/pgbench_logs.h"

namespace ckptsim::analysis {

// The names of a run folder's files that the input is read from, given by
// the caller (cli/folder/run_files.h names them; the comments here use them).
struct TpsInputNames {
  std::string progress;        // a run folder's per-interval CSV: progress.csv
  std::string aggregate_logs;  // the aggregate logs, as a message names them: pgbench_log.*
  bool (*is_aggregate_log)(const std::string& name) = nullptr;  // pgbench_log.PID, pgbench_log.PID.N
};

struct TpsInput {
  std::string format;  // "ckptsim progress.csv", "pgbench -P log (15+)", ...
  double interval_s = 0;
  std::vector<double> tps;  // missing intervals as 0
  ProgressCounts counts;
  bool has_skipped = false, has_late = false;  // whether the file reports them
  std::int64_t failed = 0;                     // pgbench 15+: transactions that failed (serialization, deadlock)
  bool has_failed = false;                     // whether the file reports them
  std::vector<std::filesystem::path> files;    // what was read
};

// interval_s is the user's --interval: 0 takes the file's own (the spacing of
// a progress.csv's rows, pgbench's -P or --aggregate-interval value, told by
// most_common_step); a whole multiple of the file's own merges its intervals
// (analysis/interval_merge.h). Throws std::runtime_error naming the file (and line) for
// what it cannot read, several files that are not all aggregate logs, no rows
// at all, or an interval_s below the file's own.
TpsInput read_tps_input(const TpsInputNames& names, const std::vector<std::filesystem::path>& inputs,
                        double interval_s = 0);

// A pgbench log's readings on the interval grid, as read_tps_input does.
TpsInput tps_of_pgbench(const PgbenchReadings& readings, const std::filesystem::path& name, double interval_s);

}  // namespace ckptsim::analysis
