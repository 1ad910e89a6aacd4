// analysis/repeat_means.h
//
// summary-mean.csv: a grid run with "repeat" has one summary.csv row per
// repeat; this file has one row per point (the rows with the same grid
// values), with, for every figure of summary.csv, the mean across the
// repeats and their spread as the sample standard deviation (n - 1 in the
// denominator: the repeats are a sample of the runs the seed could give; 0
// for a single repeat) and the smallest and largest value:
//
//   <grid columns>,repeats,tps_mean_mean,tps_mean_stddev,tps_mean_min,tps_mean_max,...
//
// Means and standard deviations have at least three decimals (a figure's own
// decimals when it has more); min and max its own decimals, as summary.csv.
//
// Left out: confidence intervals (with 3 repeats Student's t is 4.3: the
// stddev and the range say more plainly how far the repeats fell apart).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/report.h"

namespace ckptsim::analysis {

// Written atomically. Rows keep the grid's order of each point's first repeat.
void write_summary_mean_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                            const std::vector<ReportRow>& rows);

}  // namespace ckptsim::analysis
