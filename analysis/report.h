// analysis/report.h
//
// The grid's results in the two shapes people use: the fixed-width text table
// of the pgsql-hackers checkpoint threads (one row per grid point: the grid
// values, then "tps avg ± stddev", "% of intervals below the threshold",
// "min q1 med q3 max", skipped% / late% when any point has them, and, when
// the rows carry them, latency p50 / p99, checkpoints by time and requested,
// and the writes, WAL and full-page images per transaction), and a
// summary.csv with every figure at full precision for pandas or gnuplot.
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
#include <string_view>
#include <vector>

#include "analysis/stability.h"

namespace ckptsim::analysis {

// One figure of a point beyond the stability ones: a column of summary.csv.
struct Figure {
  std::string name;  // the column: "latency_p99_ms", "buffers_clean_per_tx", "waits.CPU"
  double value = 0;  // NaN: the run has none (a mean over no checkpoint): an empty cell
  int decimals = 3;  // digits after the point in summary.csv
};

// The columns the table's extra sections read, as the caller names its figures.
namespace figure_names {
inline constexpr char kLatencyP50[] = "latency_p50_ms";
inline constexpr char kLatencyP99[] = "latency_p99_ms";
inline constexpr char kCheckpointsTimed[] = "checkpoints_timed";
inline constexpr char kCheckpointsReq[] = "checkpoints_req";
inline constexpr char kBuffersCheckpointPerTx[] = "buffers_checkpoint_per_tx";
inline constexpr char kBuffersCleanPerTx[] = "buffers_clean_per_tx";
inline constexpr char kMaxwrittenCleanPerTx[] = "maxwritten_clean_per_tx";
inline constexpr char kBuffersBackendPerTx[] = "buffers_backend_per_tx";
inline constexpr char kWalMbPerTx[] = "wal_mb_per_tx";
inline constexpr char kWalFpiPerTx[] = "wal_fpi_per_tx";
}  // namespace figure_names

struct ReportRow {
  std::vector<std::string> values;  // one per grid column, as the user wrote them
  Stability stability;
  int repeat = 0;               // 1..N in a grid with "repeat", 0 without
  std::vector<Figure> figures;  // summary.csv's columns after the stability ones, the same names in every row
};

// The figure named `name` of a row, or nullptr.
const Figure* find_figure(const ReportRow& row, std::string_view name);

// The stability figures by summary.csv's column names, in its order:
// tps_mean, tps_stddev, threshold, pct_below_threshold, tps_min, tps_q1,
// tps_median, tps_q3, tps_max, skipped_pct, late_pct.
std::vector<Figure> stability_figures(const Stability& s);

// The table, every line ending in "\n". Throws std::invalid_argument if a
// row's values do not match the grid columns. With repeats (a row's repeat
// above 0) the grid section ends with a "repeat" column.
std::string format_report(const std::vector<std::string>& grid_columns, const std::vector<ReportRow>& rows,
                          double threshold);

// summary.csv: the grid columns as given (setting paths such as
// postgres.checkpoint_sorting), "repeat" when the grid has repeats, then
// tps_mean, tps_stddev, threshold, pct_below_threshold, tps_min, tps_q1,
// tps_median, tps_q3, tps_max, skipped_pct, late_pct with three decimals,
// then the rows' figures with their own decimals. Written atomically.
void write_summary_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                       const std::vector<ReportRow>& rows);

// summary.csv read back (what the grid's page shows): the grid columns are
// those before "repeat" or "tps_mean"; every column after the stability ones
// is a figure. Throws std::runtime_error "<file>:<line>: ..." for a file that
// is not one write_summary_csv wrote.
struct SummaryCsv {
  std::vector<std::string> grid_columns;
  std::vector<ReportRow> rows;
};
SummaryCsv read_summary_csv(const std::filesystem::path& path);

}  // namespace ckptsim::analysis
