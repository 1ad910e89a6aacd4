#include "cli/views_json.h"

namespace ckptsim::cli {

using json = nlohmann::ordered_json;

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
  out["pg_stat_wal"] = json{{"wal_records", s.wal_records},
                            {"wal_fpi", s.wal_fpi},
                            {"wal_bytes", s.wal_bytes},
                            {"wal_buffers_full", s.wal_buffers_full},
                            {"wal_write", s.wal_write},
                            {"wal_sync", s.wal_sync}};
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
