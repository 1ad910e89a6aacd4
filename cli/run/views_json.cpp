#include "cli/run/views_json.h"

namespace ckptsim::cli {

using json = nlohmann::ordered_json;

namespace {

// pg_stat_io's relation / normal rows of the three process types that write
// shared buffers (16+). A count a backend type never has is NULL in the view
// (pgstat_tracks_io_op: the checkpointer and bgwriter do not extend or evict).
json pg_stat_io_json(const postgres::Stats& s) {
  const json null;
  auto row = [](const char* type, const json& writes, const json& writebacks, const json& extends, const json& fsyncs,
                const json& evictions) {
    return json{{"backend_type", type},     {"object", "relation"}, {"context", "normal"}, {"writes", writes},
                {"writebacks", writebacks}, {"extends", extends},   {"fsyncs", fsyncs},    {"evictions", evictions}};
  };
  return json::array(
      {row("client backend", s.buffers_backend - s.backend_extends, s.backend_writebacks, s.backend_extends,
           s.buffers_backend_fsync, s.backend_evictions),
       row("checkpointer", s.buffers_checkpoint, s.checkpointer_writebacks, null, s.checkpointer_fsyncs, null),
       row("background writer", s.buffers_clean, s.bgwriter_writebacks, null, s.bgwriter_fsyncs, null)});
}

}  // namespace

json server_views_json(const postgres::Server& server, sim::Time origin) {
  const postgres::Stats& s = server.stats();
  const postgres::Version& version = server.version();
  json out;
  if (version.has_pg_stat_checkpointer()) {
    out["pg_stat_checkpointer"] = json{{"num_timed", s.checkpoints_timed},
                                       {"num_requested", s.checkpoints_req},
                                       {"write_time", s.checkpoint_write_time},
                                       {"sync_time", s.checkpoint_sync_time},
                                       {"buffers_written", s.buffers_checkpoint}};
    out["pg_stat_bgwriter"] = json{{"buffers_clean", s.buffers_clean},
                                   {"maxwritten_clean", s.maxwritten_clean},
                                   {"buffers_alloc", s.buffers_alloc}};
  } else {
    json bg{{"checkpoints_timed", s.checkpoints_timed}, {"checkpoints_req", s.checkpoints_req}};
    if (version.has_checkpoint_times()) {
      bg["checkpoint_write_time"] = s.checkpoint_write_time;
      bg["checkpoint_sync_time"] = s.checkpoint_sync_time;
    }
    bg["buffers_checkpoint"] = s.buffers_checkpoint;
    bg["buffers_clean"] = s.buffers_clean;
    bg["maxwritten_clean"] = s.maxwritten_clean;
    bg["buffers_backend"] = s.buffers_backend;
    if (version.has_backend_fsync_stat()) bg["buffers_backend_fsync"] = s.buffers_backend_fsync;
    bg["buffers_alloc"] = s.buffers_alloc;
    out["pg_stat_bgwriter"] = bg;
  }
  if (version.has_pg_stat_io()) out["pg_stat_io"] = pg_stat_io_json(s);
  out["pg_stat_wal"] = json{{"wal_records", s.wal_records},       {"wal_fpi", s.wal_fpi},
                            {"wal_bytes", s.wal_bytes},           {"wal_buffers_full", s.wal_buffers_full},
                            {"wal_write", s.wal_write},           {"wal_sync", s.wal_sync},
                            {"wal_write_time", s.wal_write_time}, {"wal_sync_time", s.wal_sync_time}};
  out["pg_stat_database"] = json{{"blks_hit", s.blks_hit}, {"blks_read", s.blks_read}, {"xact_commit", s.xact_commit}};
  json checkpoints = json::array();
  for (const postgres::CheckpointRecord& c : server.checkpoints_since_reset()) {
    checkpoints.push_back(json{{"start_s", sim::to_seconds(c.start - origin)},
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

json kernel_json(const os::KernelReport& r) {
  json os;
  os["kernel"] = r.kernel;
  os["page_cache_mb"] = r.page_cache_mb;
  os["dirtyable_mb"] = r.dirtyable_mb;
  os["dirty_background_thresh_mb"] = r.dirty_background_thresh_mb;
  os["dirty_thresh_mb"] = r.dirty_thresh_mb;
  os["dirty_freerun_mb"] = r.dirty_freerun_mb;
  os["peak_dirty_writeback_mb"] = r.peak_dirty_writeback_mb;
  os["dirty_mb_at_end"] = r.dirty_mb_at_end;
  os["pages_dirtied"] = r.pages_dirtied;
  os["pages_written_kupdate"] = r.pages_written_kupdate;
  os["pages_written_background"] = r.pages_written_background;
  os["pages_written_fsync"] = r.pages_written_fsync;
  os["pages_written_sync_file_range"] = r.pages_written_sync_file_range;
  os["pages_written_throttled_writers"] = r.pages_written_throttled_writers;
  os["pages_written_fadvise"] = r.pages_written_fadvise;
  os["pages_written_ordered_data"] = r.pages_written_ordered_data;
  os["pages_discarded_by_truncate"] = r.pages_discarded_by_truncate;
  os["read_hits"] = r.read_hits;
  os["read_misses"] = r.read_misses;
  os["readahead_blocks"] = r.readahead_blocks;
  os["throttle_pauses"] = r.throttle_pauses;
  os["throttle_seconds"] = r.throttle_seconds;
  os["throttle_max_pause_ms"] = r.throttle_max_pause_ms;
  os["fsyncs"] = r.fsyncs;
  os["fsync_mean_ms"] = r.fsync_mean_ms;
  os["fsync_max_ms"] = r.fsync_max_ms;
  os["sync_file_range_calls"] = r.sync_file_range_calls;
  os["journal_commits"] = r.journal_commits;
  os["journal_handle_waits"] = r.journal_handle_waits;
  os["journal_locked_seconds"] = r.journal_locked_seconds;
  os["journal_locked_max_ms"] = r.journal_locked_max_ms;
  json devices;
  for (const os::KernelReport::Device& d : r.devices) {
    devices[d.name] = json{{"scheduler", d.scheduler},
                           {"nr_requests", d.nr_requests},
                           {"reads", d.reads},
                           {"writes", d.writes},
                           {"read_merges", d.read_merges},
                           {"write_merges", d.write_merges},
                           {"read_mb", d.read_mb},
                           {"write_mb", d.write_mb},
                           {"r_await", d.r_await},
                           {"w_await", d.w_await},
                           {"flushes", d.flushes},
                           {"flush_await", d.flush_await},
                           {"util_pct", d.util_pct},
                           {"write_bw_estimate_mb_s", d.write_bw_estimate_mb_s}};
  }
  json out;
  out["os"] = os;
  out["devices"] = devices;
  return out;
}

}  // namespace ckptsim::cli
