// analysis/tps_series.h
//
// Turning timed tps readings into the per-interval series that the stability
// figures judge, whatever file they came from (ckptsim's progress.csv, a real
// pgbench -P log, a pgbench aggregate log).
//
// pgbench -P prints nothing while it is stuck and then one line for the whole
// stall, so readings may skip intervals: each reading is placed on the
// interval grid by its time, and the intervals with no reading count as
// 0 tps, as the E1 threads on pgsql-hackers counted them. A reading's time is
// the end of its interval, as pgbench prints it ("5.0 s" is the 5th one-second
// interval); readings whose first time is 0 label interval starts instead, as
// the aggregate log's interval_start does. Times are rounded to the nearest
// grid point.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace ckptsim::analysis {

struct TimedTps {
  double time_s = 0;  // seconds from the run's start
  double tps = 0;
  int line = 0;  // where it was read, for messages
};

// "<file>:<line>: <what>" as std::runtime_error: the readers' one error shape.
[[noreturn]] void fail_at(const std::filesystem::path& file, int line, std::string_view what);

// The interval of a series whose interval is not given: the smallest positive
// step between consecutive times, counting from 0 to the first (1 s for a
// single reading at time 0).
double infer_interval(const std::vector<TimedTps>& readings);

// The series on a grid of interval_s (0: infer_interval). Readings must come
// in increasing time; throws "<file>:<line>: ..." for a time going backwards or
// repeated, before the run's start, two readings in one interval, or a run of
// more than 1e8 intervals.
// time_name is what messages call a reading's time ("time_s", the column).
std::vector<double> place_on_interval_grid(const std::vector<TimedTps>& readings, double interval_s,
                                           const std::filesystem::path& file,
                                           std::string_view time_name = "time_s");

}  // namespace ckptsim::analysis
