// models/postgres/checkpointer.h
//
// The checkpointer: checkpointer.c's main loop (9.2+), the combined
// bgwriter/checkpointer of bgwriter.c (9.1-) and CreateCheckPoint (xlog.c).
// Its parts: the schedule (checkpoint_schedule.h: CheckPointSegments,
// IsCheckpointOnSchedule), the write phase (checkpoint_write.h: BufferSync,
// CheckpointWriteDelay) and the sync phase (checkpoint_sync.h:
// ProcessSyncRequests in sync.c, mdsync in md.c before 12).
//
// Triggers: checkpoint_timeout since the previous checkpoint's start (in
// whole seconds, as time(NULL) counts), or a WAL segment finished at least
// CheckPointSegments - 1 segments after the redo point's (CheckPointSegments
// = checkpoint_segments up to 9.4, max_wal_size / (2 + cct) in 9.5-10,
// max_wal_size / (1 + cct) from 11). A timed checkpoint with no WAL since the
// last one is skipped.
//
// Write phase and sync phase: see their files. After them the checkpoint
// record is inserted and flushed, old WAL segments recycled or removed, and
// the distance estimate updated (UpdateCheckPointDistanceEstimate).
//
// Left out: tablespace balancing (one tablespace), SLRU flushes, restartpoints,
// shutdown checkpoints, archive_timeout.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/postgres/bgwriter.h"
#include "models/postgres/checkpoint_schedule.h"
#include "models/postgres/checkpoint_write.h"
#include "models/postgres/log_format.h"
#include "sim/enum_names.h"

namespace ckptsim::postgres {

enum class CheckpointPhase : std::uint8_t { Idle, Write, Sync };
// As system.csv's ckpt_phase and a chained point's checkpoint_phase write them.
inline constexpr sim::EnumNames<CheckpointPhase, 3> kCheckpointPhaseNames{
    {{"idle", CheckpointPhase::Idle}, {"write", CheckpointPhase::Write}, {"sync", CheckpointPhase::Sync}}};

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
  // After a reload (Server::reload): CheckPointSegments recalculated, and the
  // latch set as SIGHUP's handler does, so the main loop re-reads checkpoint_timeout.
  void reload() {
    schedule_.recalculate(version_);
    latch_.set();
  }
  // XLogWrite's check after a finished segment.
  void wal_segment_finished(std::int64_t segno);

  // CheckPointSegments for the version and settings.
  std::int64_t checkpoint_segments() const noexcept { return schedule_.checkpoint_segments(); }
  CheckpointPhase phase() const noexcept { return phase_; }
  // The redo point of the last checkpoint that completed (0: none yet).
  Lsn last_completed_redo() const noexcept { return completed_redo_; }
  // Where recovery would start: that redo point, or the cluster's initial one before any.
  Lsn recovery_redo() const noexcept { return prior_redo_; }
  // The end of the checkpoint record that pg_control points to (the initial one before any).
  Lsn last_checkpoint_record_end() const noexcept { return last_record_end_; }
  const std::vector<CheckpointRecord>& history() const noexcept { return history_; }
  // The progress figures of the running (or last) checkpoint's write phase.
  sim::Time write_phase_start() const noexcept { return writer_.start(); }
  sim::Time write_phase_end() const noexcept { return writer_.end(); }

  void set_log(std::function<void(sim::Time, const std::string&)> log) { log_ = std::move(log); }
  void set_pid(int pid) noexcept { pid_ = pid; }
  // The server's count of transaction ids assigned, for the SLRU pages a checkpoint writes (slru.h).
  void set_xid_counter(const std::int64_t* xids) noexcept { xids_ = xids; }

 private:
  sim::Task<> create_checkpoint(PgProc& proc, int flags, BackgroundWriter* bgwriter);
  std::int64_t xids_assigned() const noexcept { return xids_ != nullptr ? *xids_ : 0; }
  std::int64_t recycle_limit_segno(Lsn redo) const;
  std::int64_t now_seconds() const noexcept { return sim_.now() / sim::kSecond; }

  sim::Simulator& sim_;
  BufferManager& bufmgr_;
  Wal& wal_;
  SyncQueue& queue_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  Latch latch_;
  int pid_ = 0;
  std::function<void(sim::Time, const std::string&)> log_;

  CheckpointRequests requests_;
  CheckpointSchedule schedule_;
  CheckpointWriter writer_;
  CheckpointPhase phase_ = CheckpointPhase::Idle;
  std::int64_t last_checkpoint_time_ = 0;  // seconds
  // Across checkpoints.
  Lsn prior_redo_ = 0;
  Lsn last_record_end_ = 0;
  Lsn completed_redo_ = 0;
  double distance_estimate_ = 0;
  std::vector<CheckpointRecord> history_;
  const std::int64_t* xids_ = nullptr;
  std::int64_t xids_at_last_checkpoint_ = 0;
};

}  // namespace ckptsim::postgres
