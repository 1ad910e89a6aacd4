// analysis/report.h
//
// The grid's results in the two shapes people use: the fixed-width text table
// of the pgsql-hackers checkpoint threads (one row per grid point: the grid
// values, then "tps avg ± stddev", "% of intervals below the threshold",
// "min q1 med q3 max", and skipped% / late% when any point has them), and a
// summary.csv with the same figures at full precision for pandas or gnuplot.
//
// Table conventions: grid values left-aligned; tps avg and stddev with one
// decimal, the "±" signs aligned; the below-threshold percentage with one
// decimal; the five order statistics rounded to whole tps; skipped and late
// percentages with two decimals (rate-limited runs care about small values).
// Widths follow the widest cell, so a column never overflows.
//
// Left out: colour, sorting the rows (the caller's grid order is kept).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/stability.h"

namespace ckptsim::analysis {

struct ReportRow {
  std::vector<std::string> values;  // one per grid column, as the user wrote them
  Stability stability;
};

// The table, every line ending in "\n". Throws std::invalid_argument if a
// row's values do not match the grid columns.
std::string format_report(const std::vector<std::string>& grid_columns, const std::vector<ReportRow>& rows,
                          double threshold);

// summary.csv: the grid columns as given (setting paths such as
// postgres.checkpoint_sorting), then tps_mean, tps_stddev, threshold,
// pct_below_threshold, tps_min, tps_q1, tps_median, tps_q3, tps_max,
// skipped_pct, late_pct with three decimals. Written atomically.
void write_summary_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                       const std::vector<ReportRow>& rows);

}  // namespace ckptsim::analysis
