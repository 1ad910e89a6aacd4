// models/postgres/checkpoint_schedule.h
//
// When a checkpoint is due and how fast it writes: CalculateCheckpointSegments
// (xlog.c) and IsCheckpointOnSchedule (checkpointer.c, 9.2-17; bgwriter.c
// before). CheckPointSegments is checkpoint_segments up to 9.4,
// max_wal_size / (2 + cct) in 9.5-10 and max_wal_size / (1 + cct) from 11.
// The write phase is on schedule while progress * cct is ahead of both the
// WAL consumed since the checkpoint started (in CheckPointSegments) and the
// elapsed share of checkpoint_timeout; once behind, it is behind until
// progress passes the figure it was last found behind (cached_elapsed).
// Left out: restartpoints (the WAL share is measured by replay there).
#pragma once

#include <cstdint>

#include "models/postgres/postgres_config.h"
#include "models/postgres/version.h"
#include "models/postgres/wal.h"

namespace ckptsim::postgres {

class CheckpointSchedule {
 public:
  CheckpointSchedule(const sim::Simulator& sim, const Wal& wal, const PostgresConfig& config, Version version);

  // CheckPointSegments for the version and settings.
  std::int64_t checkpoint_segments() const noexcept { return cps_; }
  // CalculateCheckpointSegments again, as the assign hooks of max_wal_size and
  // checkpoint_completion_target do when a reload changes them.
  void recalculate(Version version);
  // A checkpoint starts now, at the WAL's insert position, at `start_seconds` (time(NULL)).
  void start(std::int64_t start_seconds);
  // IsCheckpointOnSchedule for the write phase's progress (0..1).
  bool on_schedule(double progress);

 private:
  const sim::Simulator& sim_;
  const Wal& wal_;
  const PostgresConfig& config_;
  std::int64_t cps_;
  Lsn start_lsn_ = 0;
  std::int64_t start_seconds_ = 0;
  double cached_elapsed_ = 0;
};

}  // namespace ckptsim::postgres
