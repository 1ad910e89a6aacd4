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

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/csv.h"

namespace ckptsim::analysis {

struct TpsInput {
  std::string format;  // "ckptsim progress.csv", "pgbench -P log (15+)", ...
  double interval_s = 0;
  std::vector<double> tps;  // missing intervals as 0
  ProgressCounts counts;
  bool has_skipped = false, has_late = false;  // whether the file reports them
  std::vector<std::filesystem::path> files;    // what was read
};

// Throws std::runtime_error naming the file (and line) for what it cannot
// read, several files that are not all aggregate logs, or no rows at all.
TpsInput read_tps_input(const std::vector<std::filesystem::path>& inputs, double interval_s = 0);

}  // namespace ckptsim::analysis
