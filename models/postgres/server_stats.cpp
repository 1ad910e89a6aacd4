// models/postgres/server_stats.cpp
//
// The server's statistics as a user reads them: per-interval rates for
// system.csv, the checkpoints of the measured run,
// and pg_stat_reset.
#include <algorithm>

#include "models/postgres/server.h"

namespace ckptsim::postgres {

void Server::reset_stats() {
  stats_ = Stats{};
  window_.at_interval_start = Stats{};
  window_.reset_at = sim_.now();
}

void Server::add_system_columns(sim::Table& system) {
  // Rates of the counters, named as rates under the version's own view names:
  // 17 moved checkpoint writes to pg_stat_checkpointer (buffers_written) and
  // backend writes and fsyncs to pg_stat_io (client backend writes, fsyncs).
  const bool v17 = version_.has_pg_stat_checkpointer();
  system.add_source(
      {v17 ? "checkpointer_buffers_written_per_s" : "buffers_checkpoint_per_s", "buffers_clean_per_s",
       v17 ? "io_backend_writes_per_s" : "buffers_backend_per_s", "buffers_alloc_per_s", "maxwritten_clean_per_s",
       v17 ? "io_backend_fsyncs_per_s" : "buffers_backend_fsync_per_s", "wal_mb_per_s", "wal_fpi_per_s", "blks_hit_pct",
       "ckpt_phase"},
      [this](const sim::Interval& interval, std::span<sim::Cell> cells) {
        const double seconds = std::max(sim::to_seconds(interval.end - interval.start), 1e-9);
        const Stats& now = stats_;
        const Stats& then = window_.at_interval_start;
        const auto rate = [seconds](std::int64_t a, std::int64_t b) { return static_cast<double>(a - b) / seconds; };
        cells[0] = rate(now.buffers_checkpoint, then.buffers_checkpoint);
        cells[1] = rate(now.buffers_clean, then.buffers_clean);
        cells[2] = rate(now.buffers_backend, then.buffers_backend);
        cells[3] = rate(now.buffers_alloc, then.buffers_alloc);
        cells[4] = rate(now.maxwritten_clean, then.maxwritten_clean);
        cells[5] = rate(now.buffers_backend_fsync, then.buffers_backend_fsync);
        cells[6] = rate(now.wal_bytes, then.wal_bytes) / static_cast<double>(sim::kMiB);
        cells[7] = rate(now.wal_fpi, then.wal_fpi);
        const std::int64_t hits = now.blks_hit - then.blks_hit;
        const std::int64_t reads = now.blks_read - then.blks_read;
        cells[8] = hits + reads > 0 ? 100.0 * static_cast<double>(hits) / static_cast<double>(hits + reads) : 0.0;
        cells[9] = std::string(sim::enum_name(kCheckpointPhaseNames, aux_.checkpointer.phase()));
        window_.at_interval_start = stats_;
      });
}

std::vector<CheckpointRecord> Server::checkpoints_since_reset() const {
  std::vector<CheckpointRecord> out;
  for (const CheckpointRecord& c : aux_.checkpointer.history()) {
    if (c.start >= window_.reset_at) out.push_back(c);
  }
  return out;
}

}  // namespace ckptsim::postgres
