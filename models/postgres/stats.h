// models/postgres/stats.h
//
// The server's cumulative statistics, named as PostgreSQL's views name them:
// pg_stat_bgwriter (9.x-16; 17 splits it into pg_stat_bgwriter +
// pg_stat_checkpointer, with the same meanings), pg_stat_wal (14+; kept for
// every version here), pg_stat_database's blks_hit / blks_read, and the
// relation rows of pg_stat_io (16+) for the client backend, checkpointer and
// background writer (pgstat_io.c: only backends read, extend and evict).
//
// Simplified: counters are updated as the event happens, not on PostgreSQL's
// reporting cadence (buffers_backend is moved into the view only when the
// checkpointer absorbs requests; here at once). buffers_alloc keeps the real
// cadence because it is read-and-reset by the bgwriter (StrategySyncStart).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/time.h"

namespace ckptsim::postgres {

struct Stats {
  // pg_stat_bgwriter (<= 16) / pg_stat_checkpointer (17: num_timed, num_requested, write_time,
  // sync_time, buffers_written).
  std::int64_t checkpoints_timed = 0;
  std::int64_t checkpoints_req = 0;
  double checkpoint_write_time = 0;  // ms
  double checkpoint_sync_time = 0;   // ms
  std::int64_t buffers_checkpoint = 0;
  std::int64_t buffers_clean = 0;
  std::int64_t maxwritten_clean = 0;
  std::int64_t buffers_backend = 0;  // backend writes and relation extensions
  std::int64_t buffers_backend_fsync = 0;
  std::int64_t buffers_alloc = 0;

  // pg_stat_wal
  std::int64_t wal_records = 0;
  std::int64_t wal_fpi = 0;
  std::int64_t wal_bytes = 0;
  std::int64_t wal_buffers_full = 0;
  std::int64_t wal_write = 0;
  std::int64_t wal_sync = 0;
  // With track_wal_io_timing (14+): XLogWrite's time in pg_pwrite and
  // issue_xlog_fsync's in the sync, in ms, by every process that writes WAL.
  double wal_write_time = 0;
  double wal_sync_time = 0;

  // pg_stat_io (16+), object relation, context normal. A client backend's
  // writes are buffers_backend less its extends; the checkpointer's writes are
  // buffers_checkpoint, the bgwriter's buffers_clean; a client backend's
  // fsyncs are buffers_backend_fsync.
  std::int64_t backend_extends = 0;          // smgrextend by a backend (relation extension)
  std::int64_t backend_evictions = 0;        // a valid buffer taken over for another block
  std::int64_t backend_writebacks = 0;       // blocks, backend_flush_after
  std::int64_t checkpointer_writebacks = 0;  // blocks, checkpoint_flush_after
  std::int64_t bgwriter_writebacks = 0;      // blocks, bgwriter_flush_after
  std::int64_t checkpointer_fsyncs = 0;      // segment files fsync'ed in the sync phase (mdsyncfiletag)
  std::int64_t bgwriter_fsyncs = 0;          // the request queue full: the bgwriter fsyncs itself

  // pg_stat_io's WAL rows (18), per process kind in ProcKind's order (client
  // backend, background writer, checkpointer, walwriter): XLogWrite's
  // pg_pwrite calls and issue_xlog_fsync's syncs in context normal;
  // XLogFileInit's zero-fill (one write of the segment) and its fsync in
  // context init.
  struct WalIo {
    std::int64_t writes = 0, write_bytes = 0, fsyncs = 0;
    std::int64_t init_writes = 0, init_write_bytes = 0, init_fsyncs = 0;
  };
  std::array<WalIo, 4> wal_io{};

  // pg_stat_database
  std::int64_t blks_hit = 0;
  std::int64_t blks_read = 0;
  std::int64_t xact_commit = 0;

  // Not in a view, but useful to tests and reports.
  std::int64_t checkpoints_done = 0;         // checkpoints that ran to completion (not skipped as idle; 18's num_done)
  std::int64_t slru_written = 0;             // SLRU pages the checkpoints wrote (18's slru_written, slru.h)
  std::int64_t wal_flushes = 0;              // XLogFlush calls that wrote and fdatasync'ed (group commits)
  std::int64_t wal_fpi_for_hint = 0;         // XLOG_FPI_FOR_HINT records (their images count in wal_fpi too)
  std::int64_t hint_dirtied = 0;             // clean buffers dirtied by a hint-bit change alone
  std::int64_t wal_segments_added = 0;
  std::int64_t wal_segments_removed = 0;
  std::int64_t wal_segments_recycled = 0;
};

// One completed checkpoint, as its log_checkpoints line reports it.
struct CheckpointRecord {
  sim::Time start = 0;
  std::string cause;  // "time", "xlog"/"wal", "immediate force wait"
  double write_s = 0;
  double sync_s = 0;
  double total_s = 0;
  std::int64_t buffers = 0;
  std::int64_t sync_files = 0;
  double longest_sync_s = 0;
  std::int64_t distance_kb = 0;
  std::int64_t estimate_kb = 0;
  std::int64_t redo_lsn = 0;       // the WAL position at the checkpoint's start
  std::int64_t write_end_lsn = 0;  // the insert position when the write phase ended
  sim::Time write_end = 0;
};

}  // namespace ckptsim::postgres
