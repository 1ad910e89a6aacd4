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
// the aggregate log's interval_start does. A CSV's or an aggregate log's times
// are rounded to the nearest grid point. A -P line's time is when pgbench
// printed it, at or after the end of its interval: after a stall it prints
// one late line ("311.6 s") and the next on time ("312.0 s"), so a -P line
// counts for the last interval that had ended when it was printed, as one
// counts by hand: 311.6 s is second 311, 312.0 s second 312, and the seconds
// the stall left without a line count 0.
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

// The interval pgbench wrote a log at (its -P or --aggregate-interval value):
// the most common step between consecutive times, rounded to `resolution`
// (pgbench prints -P times to 0.1 s), the smaller on a tie. A stall's late
// line makes one long and one short step among many regular ones, so the
// smallest step would be wrong. Steps that round to 0 are left out; with none
// left, the smallest positive step; with none at all, 1 s.
double most_common_step(const std::vector<double>& times, double resolution);

enum class TimeLabel {
  kNearestGridPoint,  // ckptsim's progress.csv, pgbench's aggregate log
  kPrintedAfterEnd,   // pgbench -P: the last interval that had ended at the line's time
};

// The series on a grid of interval_s (0: infer_interval). Readings must come
// in increasing time; throws "<file>:<line>: ..." for a time going backwards or
// repeated, before the run's start, two readings in one interval, or a run of
// more than 1e7 intervals (naming the reading before it too).
// time_name is what messages call a reading's time ("time_s", the column).
std::vector<double> place_on_interval_grid(const std::vector<TimedTps>& readings, double interval_s,
                                           const std::filesystem::path& file, std::string_view time_name = "time_s",
                                           TimeLabel label = TimeLabel::kNearestGridPoint);

}  // namespace ckptsim::analysis
