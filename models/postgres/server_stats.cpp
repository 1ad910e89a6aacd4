// models/postgres/server_stats.cpp
//
// The server's statistics as a user reads them: per-interval rates for
// system.csv, totals for summary.json in the shape of the version's views,
// and pg_stat_reset.
#include <algorithm>

#include "models/postgres/server.h"

namespace ckptsim::postgres {

void Server::reset_stats() {
  stats_ = Stats{};
  at_interval_start_ = Stats{};
  stats_reset_at_ = sim_.now();
}

void Server::add_system_columns(sim::Table& system) {
  system.add_source(
      {"buffers_checkpoint", "buffers_clean", "buffers_backend", "buffers_alloc", "maxwritten_clean",
       "buffers_backend_fsync", "wal_mb_s", "wal_fpi_s", "blks_hit_pct", "ckpt_phase"},
      [this](const sim::Interval& interval, std::span<sim::Cell> cells) {
        const double seconds = std::max(sim::to_seconds(interval.end - interval.start), 1e-9);
        const Stats& now = stats_;
        const Stats& then = at_interval_start_;
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
        switch (checkpointer_.phase()) {
          case CheckpointPhase::Idle: cells[9] = std::string("idle"); break;
          case CheckpointPhase::Write: cells[9] = std::string("write"); break;
          case CheckpointPhase::Sync: cells[9] = std::string("sync"); break;
        }
        at_interval_start_ = stats_;
      });
}

nlohmann::ordered_json Server::summary_json() const {
  using json = nlohmann::ordered_json;
  const Stats& s = stats_;
  json out;
  if (version_.has_pg_stat_checkpointer()) {
    out["pg_stat_checkpointer"] = json{{"num_timed", s.checkpoints_timed},
                                       {"num_requested", s.checkpoints_req},
                                       {"write_time", s.checkpoint_write_time},
                                       {"sync_time", s.checkpoint_sync_time},
                                       {"buffers_written", s.buffers_checkpoint}};
    out["pg_stat_bgwriter"] = json{
        {"buffers_clean", s.buffers_clean}, {"maxwritten_clean", s.maxwritten_clean}, {"buffers_alloc", s.buffers_alloc}};
    // pg_stat_io's client-backend writes, where 17 reports what buffers_backend used to.
    out["pg_stat_io"] = json{{"backend_type", "client backend"},
                             {"object", "relation"},
                             {"context", "normal"},
                             {"writes", s.buffers_backend},
                             {"fsyncs", s.buffers_backend_fsync}};
  } else {
    json bg{{"checkpoints_timed", s.checkpoints_timed}, {"checkpoints_req", s.checkpoints_req}};
    if (version_.has_checkpoint_times()) {
      bg["checkpoint_write_time"] = s.checkpoint_write_time;
      bg["checkpoint_sync_time"] = s.checkpoint_sync_time;
    }
    bg["buffers_checkpoint"] = s.buffers_checkpoint;
    bg["buffers_clean"] = s.buffers_clean;
    bg["maxwritten_clean"] = s.maxwritten_clean;
    bg["buffers_backend"] = s.buffers_backend;
    if (version_.has_backend_fsync_stat()) bg["buffers_backend_fsync"] = s.buffers_backend_fsync;
    bg["buffers_alloc"] = s.buffers_alloc;
    out["pg_stat_bgwriter"] = bg;
  }
  out["pg_stat_wal"] = json{{"wal_records", s.wal_records},
                            {"wal_fpi", s.wal_fpi},
                            {"wal_bytes", s.wal_bytes},
                            {"wal_buffers_full", s.wal_buffers_full},
                            {"wal_write", s.wal_write},
                            {"wal_sync", s.wal_sync}};
  out["pg_stat_database"] = json{{"blks_hit", s.blks_hit}, {"blks_read", s.blks_read}, {"xact_commit", s.xact_commit}};
  json checkpoints = json::array();
  for (const CheckpointRecord& c : checkpointer_.history()) {
    if (c.start < stats_reset_at_) continue;
    checkpoints.push_back(json{{"start_s", sim::to_seconds(c.start)},
                               {"cause", c.cause},
                               {"buffers", c.buffers},
                               {"write_s", c.write_s},
                               {"sync_s", c.sync_s},
                               {"total_s", c.total_s},
                               {"sync_files", c.sync_files},
                               {"longest_sync_s", c.longest_sync_s},
                               {"distance_kb", c.distance_kb},
                               {"estimate_kb", c.estimate_kb}});
  }
  out["checkpoints"] = checkpoints;
  return out;
}

}  // namespace ckptsim::postgres
