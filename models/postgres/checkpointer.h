// models/postgres/checkpointer.h
//
// The checkpointer: checkpointer.c's main loop (9.2+), the combined
// bgwriter/checkpointer of bgwriter.c (9.1-), CreateCheckPoint (xlog.c),
// BufferSync (bufmgr.c), CheckpointWriteDelay / IsCheckpointOnSchedule and
// the sync phase (ProcessSyncRequests in sync.c, mdsync in md.c before 12).
//
// Triggers: checkpoint_timeout since the previous checkpoint's start (in
// whole seconds, as time(NULL) counts), or a WAL segment finished at least
// CheckPointSegments - 1 segments after the redo point's (CheckPointSegments
// = checkpoint_segments up to 9.4, max_wal_size / (2 + cct) in 9.5-10,
// max_wal_size / (1 + cct) from 11). A timed checkpoint with no WAL since the
// last one is skipped.
//
// Write phase: mark every dirty buffer BM_CHECKPOINT_NEEDED, then write
//  - 9.6+: the marked buffers in (relation, block) order (or buffer order
//    with checkpoint_sorting off), progress = processed / total, a delay call
//    after every buffer; checkpoint_flush_after writebacks;
//  - 9.5-: from the clock hand round the pool, progress = written by us /
//    marked, a delay call after each of our writes only (checkpoint_sorting
//    is ignored there: the 9.5 loop has no order to sort).
// The delay sleeps 100 ms (9.2+) when progress * cct is ahead of both the
// elapsed share of checkpoint_timeout and the WAL share of CheckPointSegments;
// up to 9.1 it instead runs one BgBufferSync round and naps bgwriter_delay,
// so LRU cleaning stops whenever the checkpoint is behind and during the
// whole sync phase. Sync phase: fsync every segment file with pending
// requests, back to back, absorbing the queue every 10 fsyncs; with
// fsync = off, drop the requests without a call (sync files=0).
//
// Left out: tablespace balancing (one tablespace), SLRU flushes, restartpoints,
// shutdown checkpoints, archive_timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/postgres/bgwriter.h"
#include "models/postgres/log_format.h"

namespace ckptsim::postgres {

enum class CheckpointPhase : std::uint8_t { Idle, Write, Sync };

class Checkpointer {
 public:
  Checkpointer(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, Wal& wal, SyncQueue& queue,
               const PostgresConfig& config, Version version, Stats& stats);

  // The process body: 9.2+ checkpointer, or (with `bgwriter`) the 9.1- combined process.
  sim::Process run(PgProc& proc, BackgroundWriter* bgwriter);

  // RequestCheckpoint: remembered, and the process woken.
  void request(int flags);
  // SetLatch only: absorb the request queue soon (a sender found it half full).
  void wake() { latch_.set(); }
  // XLogWrite's check after a finished segment.
  void wal_segment_finished(std::int64_t segno);

  // CheckPointSegments for the version and settings.
  std::int64_t checkpoint_segments() const noexcept { return cps_; }
  CheckpointPhase phase() const noexcept { return phase_; }
  // The redo point of the last checkpoint that completed (0: none yet).
  Lsn last_completed_redo() const noexcept { return completed_redo_; }
  // Where recovery would start: that redo point, or the cluster's initial one before any.
  Lsn recovery_redo() const noexcept { return prior_redo_; }
  // The end of the checkpoint record that pg_control points to (the initial one before any).
  Lsn last_checkpoint_record_end() const noexcept { return last_record_end_; }
  const std::vector<CheckpointRecord>& history() const noexcept { return history_; }
  // The progress figures of the running (or last) checkpoint's write phase.
  sim::Time write_phase_start() const noexcept { return write_start_; }
  sim::Time write_phase_end() const noexcept { return write_end_; }

  void set_log(std::function<void(sim::Time, const std::string&)> log) { log_ = std::move(log); }
  void set_pid(int pid) noexcept { pid_ = pid; }

 private:
  sim::Task<> create_checkpoint(PgProc& proc, int flags, BackgroundWriter* bgwriter);
  sim::Task<> buffer_sync(PgProc& proc, int flags, BackgroundWriter* bgwriter);
  sim::Task<> write_delay(PgProc& proc, int flags, double progress, BackgroundWriter* bgwriter);
  // SyncOneBuffer for the checkpoint, counted as buffers_checkpoint: false if someone else wrote it first.
  sim::Task<bool> write_buffer(PgProc& proc, BufferId id);
  bool on_schedule(double progress);
  sim::Task<> sync_phase(PgProc& proc, CheckpointEnd& end);
  std::int64_t recycle_limit_segno(Lsn redo) const;
  std::int64_t now_seconds() const noexcept { return sim_.now() / sim::kSecond; }

  sim::Simulator& sim_;
  sim::Resource* cpus_;
  BufferManager& bufmgr_;
  BufferPool& pool_;
  Wal& wal_;
  SyncQueue& queue_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  Latch latch_;
  std::int64_t cps_;
  int pid_ = 0;
  std::function<void(sim::Time, const std::string&)> log_;

  int requested_flags_ = 0;
  bool requested_ = false;
  CheckpointPhase phase_ = CheckpointPhase::Idle;
  std::int64_t last_checkpoint_time_ = 0;  // seconds
  // IsCheckpointOnSchedule's state.
  Lsn ckpt_start_lsn_ = 0;
  std::int64_t ckpt_start_time_ = 0;  // seconds
  double ckpt_cached_elapsed_ = 0;
  int absorb_counter_ = 0;
  // Across checkpoints.
  Lsn prior_redo_ = 0;
  Lsn last_record_end_ = 0;
  Lsn completed_redo_ = 0;
  double distance_estimate_ = 0;
  sim::Time write_start_ = 0;
  sim::Time write_end_ = 0;
  std::vector<BufferManager::CkptSortItem> todo_;
  std::int64_t written_this_checkpoint_ = 0;
  std::vector<CheckpointRecord> history_;
};

}  // namespace ckptsim::postgres
