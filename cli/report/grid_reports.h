// cli/report/grid_reports.h
//
// A grid's tables, rebuilt from its point folders alone: each point's row is
// read from the summary.json the point wrote (the stability figures, pgbench's
// latency percentiles, pg_stat_bgwriter / pg_stat_checkpointer / pg_stat_io,
// pg_stat_wal, the checkpoints log_checkpoints reported, the wait events'
// totals), never from the process that ran it, so the end of a grid run and a
// rebuild from copied-back folders give the same files.
//
// summary.csv's columns after the stability ones, in order:
//   transactions, latency_avg_ms, latency_p50_ms, latency_p90_ms,
//   latency_p99_ms, latency_p99_9_ms, lag_avg_ms                    (pgbench)
//   checkpoints, checkpoints_timed, checkpoints_req                 (counted as
//     pg_stat_bgwriter counts them: when they start)
//   checkpoint_write_s_mean, checkpoint_sync_s_mean                 (over the
//     checkpoints that completed: postgres.log's "checkpoint complete" lines)
//   buffers_checkpoint_per_tx, buffers_clean_per_tx, maxwritten_clean_per_tx,
//   buffers_backend_per_tx, buffers_alloc_per_tx                    (per pgbench transaction;
//     on 17 from pg_stat_checkpointer's buffers_written and pg_stat_io's client
//     backend writes + extends)
//   wal_mb_per_tx (MiB), wal_fpi_per_tx                             (pg_stat_wal)
//   waits.backend_seconds, then waits.<event> for every wait event   (seconds of backend time)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/report.h"

namespace ckptsim::cli {

// One point's row: `values` its grid values as written, `repeat` 1..N (0 without repeats).
// Throws std::runtime_error naming the file when its summary.json is missing, is not
// ckptsim's, or has no figures (a run stopped before its measured run).
analysis::ReportRow point_report_row(const std::filesystem::path& point_dir, std::vector<std::string> values,
                                     int repeat = 0);

// The report's text: the grid table, and for a grid over checkpoint sorting
// and a *_flush_after setting, the E1 thread's table after it
// (analysis/sort_flush_table.h).
std::string grid_report_text(const std::vector<std::string>& grid_paths, const std::vector<analysis::ReportRow>& rows,
                             double threshold);

// Writes summary.csv, and summary-mean.csv when a row has a repeat, into `grid_dir`.
void write_grid_tables(const std::filesystem::path& grid_dir, const std::vector<std::string>& grid_paths,
                       const std::vector<analysis::ReportRow>& rows);

}  // namespace ckptsim::cli
