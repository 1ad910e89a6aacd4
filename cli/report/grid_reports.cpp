#include "cli/report/grid_reports.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analysis/regular_file.h"
#include "analysis/repeat_means.h"
#include "analysis/sort_flush_table.h"
#include "cli/folder/run_files.h"
#include "cli/folder/summary_stability.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
// Ordered: the wait events keep summary.json's order (waits.csv's), not the alphabet's.
using json = nlohmann::ordered_json;

namespace {

constexpr std::size_t kMaxSummaryBytes = 64 << 20;  // far more than a summary.json ckptsim writes
constexpr double kMiB = 1024.0 * 1024.0;

double per_tx(double count, double transactions) { return transactions > 0 ? count / transactions : 0.0; }

// The pg_stat_io row of one backend type (16, 17), or an empty object.
json io_row(const json& summary, const char* backend_type) {
  for (const json& row : summary.value("pg_stat_io", json::array())) {
    if (row.value("backend_type", "") == backend_type) return row;
  }
  return json::object();
}

// The figures of summary.json, in summary.csv's order (grid_reports.h).
std::vector<analysis::Figure> figures_of(const json& summary) {
  namespace fig = analysis::figure_names;
  const json& pgbench = summary.at("pgbench");
  const json& latency = pgbench.at("latency_ms");
  const double tx = pgbench.at("transactions").get<double>();
  // 17 moved the checkpoint counters to pg_stat_checkpointer and backend writes to pg_stat_io.
  const json& bgwriter = summary.at("pg_stat_bgwriter");
  const bool v17 = summary.contains("pg_stat_checkpointer");
  const json& checkpointer = v17 ? summary.at("pg_stat_checkpointer") : bgwriter;
  const double timed = checkpointer.at(v17 ? "num_timed" : "checkpoints_timed").get<double>();
  const double requested = checkpointer.at(v17 ? "num_requested" : "checkpoints_req").get<double>();
  const double buffers_checkpoint = checkpointer.at(v17 ? "buffers_written" : "buffers_checkpoint").get<double>();
  double buffers_backend = 0;
  if (v17) {
    const json backend = io_row(summary, "client backend");
    buffers_backend = backend.at("writes").get<double>() + backend.at("extends").get<double>();
  } else {
    buffers_backend = bgwriter.at("buffers_backend").get<double>();
  }
  constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();
  double write_s = 0, sync_s = 0;
  const json& checkpoints = summary.at("checkpoints");
  for (const json& c : checkpoints) {
    write_s += c.at("write_s").get<double>();
    sync_s += c.at("sync_s").get<double>();
  }
  const double completed = static_cast<double>(checkpoints.size());
  const json& wal = summary.at("pg_stat_wal");

  std::vector<analysis::Figure> figures = {
      {"transactions", tx, 0},
      {"latency_avg_ms", pgbench.at("latency_avg_ms").get<double>(), 3},
      {fig::kLatencyP50, latency.at("p50").get<double>(), 3},
      {"latency_p90_ms", latency.at("p90").get<double>(), 3},
      {fig::kLatencyP99, latency.at("p99").get<double>(), 3},
      {"latency_p99_9_ms", latency.at("p99_9").get<double>(), 3},
      {"lag_avg_ms", pgbench.at("lag_avg_ms").get<double>(), 3},
      {"checkpoints", timed + requested, 0},
      {fig::kCheckpointsTimed, timed, 0},
      {fig::kCheckpointsReq, requested, 0},
      // Over no completed checkpoint there is no mean: an empty cell, not 0.
      {"checkpoint_write_s_mean", completed > 0 ? write_s / completed : kNoValue, 3},
      {"checkpoint_sync_s_mean", completed > 0 ? sync_s / completed : kNoValue, 3},
      {fig::kBuffersCheckpointPerTx, per_tx(buffers_checkpoint, tx), 6},
      {fig::kBuffersCleanPerTx, per_tx(bgwriter.at("buffers_clean").get<double>(), tx), 6},
      {fig::kMaxwrittenCleanPerTx, per_tx(bgwriter.at("maxwritten_clean").get<double>(), tx), 6},
      {fig::kBuffersBackendPerTx, per_tx(buffers_backend, tx), 6},
      {"buffers_alloc_per_tx", per_tx(bgwriter.at("buffers_alloc").get<double>(), tx), 6},
      {fig::kWalMbPerTx, per_tx(wal.at("wal_bytes").get<double>() / kMiB, tx), 6},
      {fig::kWalFpiPerTx, per_tx(wal.at("wal_fpi").get<double>(), tx), 6},
  };
  const json& waits = summary.at("waits");
  figures.push_back({"waits.backend_seconds", waits.at("backend_seconds").get<double>(), 3});
  for (const auto& [event, seconds] : waits.at("events").items())
    figures.push_back({fmt::format("waits.{}", event), seconds.get<double>(), 3});
  return figures;
}

}  // namespace

analysis::ReportRow point_report_row(const fs::path& point_dir, std::vector<std::string> values, int repeat) {
  const fs::path file = point_dir / run_files::kSummaryJson;
  const auto head = analysis::read_regular_file(file, kMaxSummaryBytes);  // never a FIFO
  if (!head || head->cut)
    throw std::runtime_error(fmt::format("{}: missing or not a summary ckptsim wrote", file.string()));
  const json summary = json::parse(head->text, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object()) throw std::runtime_error(fmt::format("{}: not JSON", file.string()));
  if (!summary.contains("stability") || summary["stability"].is_null())
    throw std::runtime_error(fmt::format("{}: no figures: the run stopped before its measured run", file.string()));
  try {
    return analysis::ReportRow{.values = std::move(values),
                               .stability = stability_from_json(nlohmann::json(summary["stability"])),
                               .repeat = repeat,
                               .figures = figures_of(summary)};
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not a summary ckptsim wrote ({})", file.string(), e.what()));
  }
}

std::string grid_report_text(const std::vector<std::string>& grid_paths, const std::vector<analysis::ReportRow>& rows,
                             double threshold) {
  std::string text = analysis::format_report(grid_paths, rows, threshold);
  if (const auto table = analysis::sort_flush_table(grid_paths, rows, threshold))
    text += fmt::format("\n{}", analysis::format_sort_flush_table(*table));
  return text;
}

void write_grid_tables(const fs::path& grid_dir, const std::vector<std::string>& grid_paths,
                       const std::vector<analysis::ReportRow>& rows) {
  analysis::write_summary_csv(grid_dir / run_files::kSummaryCsv, grid_paths, rows);
  if (std::any_of(rows.begin(), rows.end(), [](const analysis::ReportRow& r) { return r.repeat > 0; }))
    analysis::write_summary_mean_csv(grid_dir / run_files::kSummaryMeanCsv, grid_paths, rows);
}

}  // namespace ckptsim::cli
