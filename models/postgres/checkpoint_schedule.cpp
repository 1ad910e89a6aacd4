// models/postgres/checkpoint_schedule.cpp
//
// CalculateCheckpointSegments and IsCheckpointOnSchedule (see checkpoint_schedule.h).
#include "models/postgres/checkpoint_schedule.h"

#include <algorithm>

namespace ckptsim::postgres {

CheckpointSchedule::CheckpointSchedule(const sim::Simulator& sim, const Wal& wal, const PostgresConfig& config,
                                       Version version)
    : sim_(sim), wal_(wal), config_(config) {
  recalculate(version);
}

void CheckpointSchedule::recalculate(Version version) {
  if (version.has_max_wal_size()) {
    const double segs = static_cast<double>(config_.max_wal_size / kWalSegmentBytes);
    cps_ = static_cast<std::int64_t>(segs / (version.cps_divisor_base() + config_.checkpoint_completion_target));
  } else {
    cps_ = config_.checkpoint_segments;
  }
  cps_ = std::max<std::int64_t>(cps_, 1);
}

void CheckpointSchedule::start(std::int64_t start_seconds) {
  start_lsn_ = wal_.insert_lsn();
  start_seconds_ = start_seconds;
  cached_elapsed_ = 0;
}

bool CheckpointSchedule::on_schedule(double progress) {
  progress *= config_.checkpoint_completion_target;
  if (progress < cached_elapsed_) return false;  // behind last time we looked: still behind
  const double elapsed_xlogs = static_cast<double>(wal_.insert_lsn() - start_lsn_) /
                               static_cast<double>(kWalSegmentBytes) / static_cast<double>(cps_);
  if (progress < elapsed_xlogs) {
    cached_elapsed_ = elapsed_xlogs;
    return false;
  }
  // The start time has one-second resolution (pg_time_t); now has microseconds.
  const double elapsed_time =
      (sim::to_seconds(sim_.now()) - static_cast<double>(start_seconds_)) / sim::to_seconds(config_.checkpoint_timeout);
  if (progress < elapsed_time) {
    cached_elapsed_ = elapsed_time;
    return false;
  }
  return true;
}

}  // namespace ckptsim::postgres
