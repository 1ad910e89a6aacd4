#include "cli/report/views_json.h"

#include <array>

namespace ckptsim::cli {

using json = nlohmann::ordered_json;

namespace {

constexpr std::int64_t kBlockBytes = 8192;  // BLCKSZ: 16 and 17's op_bytes, 18's bytes per block

// pg_stat_io's relation / normal rows of the three process types that read or
// write shared buffers (16+), with the columns the model counts (the *_time
// columns need track_io_timing, which is not modelled). A count a backend type
// never has is NULL in the view (pgstat_tracks_io_op: the checkpointer and
// bgwriter do not read, extend or evict; reuses exist only in the bulk
// contexts). 16 and 17 give op_bytes, 18 bytes per operation instead.
json relation_io_rows(const postgres::Stats& s, bool bytes) {
  const json null;
  auto row = [&](const char* type, const json& reads, const json& writes, const json& writebacks, const json& extends,
                 const json& hits, const json& evictions, const json& fsyncs) {
    const auto in_bytes = [&](const json& count) {
      return count.is_null() ? null : json(count.get<std::int64_t>() * kBlockBytes);
    };
    json r{{"backend_type", type}, {"object", "relation"}, {"context", "normal"}, {"reads", reads}};
    if (bytes) r["read_bytes"] = in_bytes(reads);
    r["writes"] = writes;
    if (bytes) r["write_bytes"] = in_bytes(writes);
    r["writebacks"] = writebacks;
    r["extends"] = extends;
    if (bytes) r["extend_bytes"] = in_bytes(extends);
    if (!bytes) r["op_bytes"] = kBlockBytes;
    r["hits"] = hits;
    r["evictions"] = evictions;
    r["reuses"] = null;
    r["fsyncs"] = fsyncs;
    return r;
  };
  return json::array(
      {row("client backend", s.blks_read, s.buffers_backend - s.backend_extends, s.backend_writebacks,
           s.backend_extends, s.blks_hit, s.backend_evictions, s.buffers_backend_fsync),
       row("checkpointer", null, s.buffers_checkpoint, s.checkpointer_writebacks, null, null, null,
           s.checkpointer_fsyncs),
       row("background writer", null, s.buffers_clean, s.bgwriter_writebacks, null, null, null, s.bgwriter_fsyncs)});
}

// 18's WAL rows (object wal): XLogWrite's writes and issue_xlog_fsync's syncs
// in context normal, XLogFileInit's in context init, for each process type
// that wrote WAL (xlog.c's pgstat_count_io_op_time calls).
void add_wal_io_rows(json& rows, const postgres::Stats& s) {
  constexpr std::array<const char*, 4> kTypes{"client backend", "background writer", "checkpointer", "walwriter"};
  const auto add = [&rows](const char* type, const char* context, std::int64_t writes, std::int64_t bytes,
                           std::int64_t fsyncs) {
    if (writes + fsyncs == 0) return;
    rows.push_back(json{{"backend_type", type},
                        {"object", "wal"},
                        {"context", context},
                        {"writes", writes},
                        {"write_bytes", bytes},
                        {"fsyncs", fsyncs}});
  };
  for (std::size_t kind = 0; kind < kTypes.size(); ++kind) {
    const postgres::Stats::WalIo& io = s.wal_io[kind];
    add(kTypes[kind], "normal", io.writes, io.write_bytes, io.fsyncs);
    add(kTypes[kind], "init", io.init_writes, io.init_write_bytes, io.init_fsyncs);
  }
}

json pg_stat_io_json(const postgres::Stats& s, const postgres::Version& version) {
  const bool v18 = version.has_io_bytes_and_wal_rows();
  json rows = relation_io_rows(s, v18);
  if (v18) add_wal_io_rows(rows, s);
  return rows;
}

}  // namespace

json server_views_json(const postgres::Server& server, sim::Time origin) {
  const postgres::Stats& s = server.stats();
  const postgres::Version& version = server.version();
  json out;
  if (version.has_pg_stat_checkpointer()) {
    json checkpointer{{"num_timed", s.checkpoints_timed}, {"num_requested", s.checkpoints_req}};
    if (version.has_io_bytes_and_wal_rows()) checkpointer["num_done"] = s.checkpoints_done;
    checkpointer["write_time"] = s.checkpoint_write_time;
    checkpointer["sync_time"] = s.checkpoint_sync_time;
    checkpointer["buffers_written"] = s.buffers_checkpoint;
    if (version.has_io_bytes_and_wal_rows()) checkpointer["slru_written"] = s.slru_written;
    out["pg_stat_checkpointer"] = checkpointer;
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
  if (version.has_pg_stat_io()) out["pg_stat_io"] = pg_stat_io_json(s, version);
  json wal{{"wal_records", s.wal_records},
           {"wal_fpi", s.wal_fpi},
           {"wal_bytes", s.wal_bytes},
           {"wal_buffers_full", s.wal_buffers_full}};
  if (!version.has_io_bytes_and_wal_rows()) {
    wal["wal_write"] = s.wal_write;
    wal["wal_sync"] = s.wal_sync;
    wal["wal_write_time"] = s.wal_write_time;
    wal["wal_sync_time"] = s.wal_sync_time;
  }
  out["pg_stat_wal"] = wal;
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
