// analysis/progress_line.h
//
// One pgbench -P line, read field by field as printProgressReport prints it
// (pgbench.c, 9.4 to 17):
//   "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f"
//   then, each when present and in this order: ", N failed" (15+),
//   ", lag %.3f ms" (-R), ", N skipped" (-R with -L), ", N retried, M retries"
//   (15+, --max-tries other than 1); "\r" at the end is passed over.
// The latencies may read "NaN" (PostgreSQL's snprintf, 12+: the stddev of a
// second with one transaction), "nan" or "-nan" (9.x divides by zero in a second
// without transactions) and are checked to be numbers but not kept.
//
// A hand-written reader, linear in the line's length: a backtracking regex
// overflowed the stack on a 30000-digit field. A number that does not fit a
// double (or an int64 for counts) is refused naming its field; one that fits
// is taken as the value it is.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace ckptsim::analysis {

struct ProgressLine {
  double time_s = 0;  // as printed: seconds since the start, or epoch seconds
  double tps = 0;
  bool has_failed = false;  // pgbench 15+ prints ", N failed"
  std::int64_t failed = 0;  // transactions of this interval that failed
  bool has_skipped = false;
  std::int64_t skipped = 0;
};

// `line` starts with "progress: ". Throws "<file>:<number>: ..." for a line of
// another shape, naming what was expected, or a field out of range, naming it.
ProgressLine parse_progress_line(std::string_view line, const std::filesystem::path& file, int number);

}  // namespace ckptsim::analysis
