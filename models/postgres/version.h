// models/postgres/version.h
//
// What changed between releases on the write path, as switches read by the
// models (docs/reference/postgres-model.md 7.4). A release is a PG_VERSION_NUM-like number
// (90000 for 9.0, 90600 for 9.6, 150000 for 15), parsed once from
// postgres.version. Settings that merely changed their default (cct 0.9 in
// 14, log_checkpoints on in 15) live in the preset files, not here.
#pragma once

#include <string_view>

namespace ckptsim::postgres {

class Version {
 public:
  // "9.0" .. "9.6", "10" .. "18"; anything unparsable is treated as 17.
  explicit Version(std::string_view text);

  int num() const noexcept { return num_; }
  bool at_least(int num) const noexcept { return num_ >= num; }

  // Up to 9.1 one process is both background writer and checkpointer.
  bool combined_bgwriter() const noexcept { return num_ < 90200; }
  // CompactCheckpointerRequestQueue (and buffers_backend_fsync) from 9.1.
  bool queue_compaction() const noexcept { return num_ >= 90100; }
  bool has_backend_fsync_stat() const noexcept { return num_ >= 90100; }
  // checkpoint_write_time / checkpoint_sync_time from 9.2.
  bool has_checkpoint_times() const noexcept { return num_ >= 90200; }
  // BufferSync: 9.6's loop (processed / total, delay after each buffer) or 9.5's (written / to_write).
  bool sorted_buffer_sync_loop() const noexcept { return num_ >= 90600; }
  // max_wal_size / min_wal_size replace checkpoint_segments in 9.5.
  bool has_max_wal_size() const noexcept { return num_ >= 90500; }
  // CheckPointSegments = max_wal_size / (divisor + cct): 2 in 9.5-10, 1 from 11.
  double cps_divisor_base() const noexcept { return num_ >= 110000 ? 1.0 : 2.0; }
  // wal_level's default is replica from 10 (minimal before, where a COPY into a
  // table created or truncated in the same transaction, and an index build,
  // skip WAL): pgbench -i's load is WAL-logged, and its checkpoints leave pg_wal full.
  bool bulk_load_wal_logged() const noexcept { return num_ >= 100000; }
  // 10-: WAL from the previous checkpoint's redo point is kept too.
  bool keeps_previous_checkpoint_wal() const noexcept { return num_ < 110000; }
  // 9.3+: only the group-commit leader sleeps commit_delay; before, every committer.
  bool commit_delay_by_leader() const noexcept { return num_ >= 90300; }
  // XLogBackgroundFlush honours wal_writer_flush_after from 9.6.
  bool wal_writer_flush_after() const noexcept { return num_ >= 90600; }
  // 17: pg_stat_checkpointer; buffers_backend* leave pg_stat_bgwriter.
  bool has_pg_stat_checkpointer() const noexcept { return num_ >= 170000; }
  // 16: pg_stat_io, rows per backend type, object and context.
  bool has_pg_stat_io() const noexcept { return num_ >= 160000; }
  // 18 (release-18.sgml): pg_stat_io counts bytes (read_bytes, write_bytes,
  // extend_bytes; op_bytes removed) and has WAL rows; pg_stat_wal loses
  // wal_write, wal_sync, wal_write_time, wal_sync_time; pg_stat_checkpointer
  // gains num_done and slru_written.
  bool has_io_bytes_and_wal_rows() const noexcept { return num_ >= 180000; }

  // log_checkpoints line shapes.
  bool log_sync_stats() const noexcept { return num_ >= 90100; }
  bool log_distance() const noexcept { return num_ >= 90500; }
  bool log_lsns() const noexcept { return num_ >= 160000; }
  // 18: "wrote N buffers (P%), wrote M SLRU buffers;" (LogCheckpointEnd).
  bool log_slru_buffers() const noexcept { return num_ >= 180000; }
  const char* wal_file_words() const noexcept { return num_ >= 100000 ? "WAL file(s)" : "transaction log file(s)"; }
  const char* wal_cause_word() const noexcept { return num_ >= 120000 ? "wal" : "xlog"; }
  // 15+ prints elapsed times rounded up to the millisecond (TimestampDifferenceMilliseconds);
  // before, seconds and truncated milliseconds.
  bool log_times_round_up() const noexcept { return num_ >= 150000; }

 private:
  int num_;
};

}  // namespace ckptsim::postgres
