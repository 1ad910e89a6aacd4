// models/postgres/checkpointer.cpp
//
// The checkpointer's loop and CreateCheckPoint.
#include "models/postgres/checkpointer.h"

#include "models/postgres/checkpoint_sync.h"
#include "models/postgres/slru.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ckptsim::postgres {

namespace {
constexpr int kCheckpointRecordBytes = 114;  // XLOG_CHECKPOINT_ONLINE: header + CheckPoint struct
}  // namespace

Checkpointer::Checkpointer(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, Wal& wal, SyncQueue& queue,
                           const PostgresConfig& config, Version version, Stats& stats)
    : sim_(sim),
      bufmgr_(bufmgr),
      wal_(wal),
      queue_(queue),
      config_(config),
      version_(version),
      stats_(stats),
      latch_(sim),
      schedule_(sim, wal, config, version),
      writer_(sim, cpus, bufmgr, queue, config, version, stats, schedule_, requests_) {
  prior_redo_ = last_record_end_ = wal.insert_lsn();
}

void Checkpointer::request(int flags) {
  requests_.add(flags);
  latch_.set();
}

void Checkpointer::wal_segment_finished(std::int64_t segno) {
  // XLogCheckpointNeeded: the redo point's segment plus CheckPointSegments - 1.
  const std::int64_t redo_segno = wal_.redo_ptr() / kWalSegmentBytes;
  if (segno >= redo_segno + schedule_.checkpoint_segments() - 1 && !requests_.pending(kCheckpointCauseXlog)) {
    request(kCheckpointCauseXlog);
  }
}

sim::Process Checkpointer::run(PgProc& proc, BackgroundWriter* bgwriter) {
  last_checkpoint_time_ = now_seconds();
  for (;;) {
    queue_.absorb();
    bool do_checkpoint = false;
    int flags = 0;
    if (requests_.pending()) {
      do_checkpoint = true;
      flags = requests_.take();
      ++stats_.checkpoints_req;
    }
    const std::int64_t now = now_seconds();
    std::int64_t elapsed = now - last_checkpoint_time_;
    const std::int64_t timeout = config_.checkpoint_timeout / sim::kSecond;
    if (elapsed >= timeout) {
      if (!do_checkpoint) ++stats_.checkpoints_timed;
      do_checkpoint = true;
      flags |= kCheckpointCauseTime;
    }
    if (do_checkpoint) {
      const std::int64_t warning = config_.checkpoint_warning / sim::kSecond;
      if ((flags & kCheckpointCauseXlog) && elapsed < warning && log_) {
        log_(sim_.now(),
             log_prefix(sim_.now(), pid_) + fmt::format("checkpoints are occurring too frequently ({} second{} apart)",
                                                        elapsed, elapsed == 1 ? "" : "s"));
        log_(sim_.now(), log_prefix(sim_.now(), pid_, "HINT") +
                             fmt::format("Consider increasing the configuration parameter \"{}\".",
                                         version_.has_max_wal_size() ? "max_wal_size" : "checkpoint_segments"));
      }
      schedule_.start(now);
      co_await create_checkpoint(proc, flags, bgwriter);
      last_checkpoint_time_ = now;
    } else if (bgwriter != nullptr) {
      co_await bgwriter->buffer_sync(proc);  // 9.1-: LRU cleaning between checkpoints
    }
    // Sleep until the next timeout or a request.
    if (bgwriter != nullptr) {
      const sim::Duration nap = config_.bgwriter_lru_maxpages > 0 ? config_.bgwriter_delay : 10 * sim::kSecond;
      co_await latch_.wait(nap);
      continue;
    }
    elapsed = now_seconds() - last_checkpoint_time_;
    if (elapsed >= timeout) continue;
    co_await latch_.wait((timeout - elapsed) * sim::kSecond);
  }
}

sim::Task<> Checkpointer::create_checkpoint(PgProc& proc, int flags, BackgroundWriter* bgwriter) {
  const sim::Time start = sim_.now();
  CheckpointEnd end;
  // A timed checkpoint with nothing logged since the previous one is skipped, silently.
  if (!(flags & (kCheckpointForce | kCheckpointShutdown)) && wal_.insert_lsn() == last_record_end_) co_return;

  const Lsn redo = wal_.set_redo_ptr();
  // CheckPointGuts writes the SLRUs before the shared buffers.
  end.slru_written = slru_pages_written_by_checkpoint(xids_at_last_checkpoint_, xids_assigned(), bufmgr_.pool().size());
  xids_at_last_checkpoint_ = xids_assigned();
  stats_.slru_written += end.slru_written;
  phase_ = CheckpointPhase::Write;
  if (config_.log_checkpoints && log_)
    log_(start, log_prefix(start, pid_) + checkpoint_starting_message(version_, flags));

  co_await writer_.buffer_sync(proc, flags, bgwriter);
  const sim::Time sync_start = sim_.now();
  const Lsn write_end_lsn = wal_.insert_lsn();
  phase_ = CheckpointPhase::Sync;

  co_await process_sync_requests(sim_, proc, queue_, bufmgr_.relations(), config_, stats_, end);
  const sim::Time sync_end = sim_.now();

  // The checkpoint record, flushed: from now on recovery starts at `redo`.
  const Lsn record_end = co_await wal_.insert(proc, kCheckpointRecordBytes);
  co_await wal_.flush(proc, record_end);
  last_record_end_ = record_end;

  // UpdateCheckPointDistanceEstimate: fast up, slow down.
  const auto distance = static_cast<double>(redo - prior_redo_);
  distance_estimate_ = distance_estimate_ < distance ? distance : 0.90 * distance_estimate_ + 0.10 * distance;
  const Lsn keep = version_.keeps_previous_checkpoint_wal() ? prior_redo_ : redo;
  const WalSegments::Counts counts = wal_.segments().remove_old(keep, recycle_limit_segno(redo));
  end.segs_added = co_await wal_.preallocate(proc);
  end.segs_removed = counts.removed;
  end.segs_recycled = counts.recycled;
  end.distance_bytes = redo - prior_redo_;
  end.estimate_bytes = distance_estimate_;
  prior_redo_ = redo;
  completed_redo_ = redo;

  const sim::Time finish = sim_.now();
  end.buffers_written = writer_.buffers_written();
  end.nbuffers = bufmgr_.pool().size();
  end.write = sync_start - writer_.start();
  end.sync = sync_end - sync_start;
  end.total = finish - start;
  end.checkpoint_lsn = record_end - kCheckpointRecordBytes;
  end.redo_lsn = redo;
  stats_.checkpoint_write_time += sim::to_millis(end.write);
  stats_.checkpoint_sync_time += sim::to_millis(end.sync);
  ++stats_.checkpoints_done;
  if (config_.log_checkpoints && log_)
    log_(finish, log_prefix(finish, pid_) + checkpoint_complete_message(version_, end));

  CheckpointRecord rec;
  rec.start = start;
  rec.cause = checkpoint_cause(version_, flags);
  rec.write_s = sim::to_seconds(end.write);
  rec.sync_s = sim::to_seconds(end.sync);
  rec.total_s = sim::to_seconds(end.total);
  rec.buffers = end.buffers_written;
  rec.sync_files = end.sync_files;
  rec.longest_sync_s = static_cast<double>(end.longest_sync_us) / 1e6;
  rec.distance_kb = end.distance_bytes / 1024;
  rec.estimate_kb = static_cast<std::int64_t>(end.estimate_bytes / 1024);
  rec.redo_lsn = redo;
  rec.write_end_lsn = write_end_lsn;
  rec.write_end = sync_start;
  history_.push_back(rec);
  phase_ = CheckpointPhase::Idle;
}

std::int64_t Checkpointer::recycle_limit_segno(Lsn redo) const {
  const std::int64_t redo_segno = redo / kWalSegmentBytes;
  if (!version_.has_max_wal_size()) {
    // XLOGfileslop: up to 2 * checkpoint_segments + 1 segments ahead of the insert position.
    return wal_.insert_lsn() / kWalSegmentBytes + 2 * config_.checkpoint_segments + 1;
  }
  // XLOGGetRecycleSegNo: enough for the estimated distance to the next checkpoint, within min/max_wal_size.
  const double distance =
      (version_.cps_divisor_base() + config_.checkpoint_completion_target) * distance_estimate_ * 1.10;
  auto target = static_cast<std::int64_t>(std::ceil((static_cast<double>(redo) + distance) / kWalSegmentBytes));
  const std::int64_t min_segno = redo_segno + config_.min_wal_size / kWalSegmentBytes - 1;
  const std::int64_t max_segno = redo_segno + config_.max_wal_size / kWalSegmentBytes - 1;
  return std::clamp(target, min_segno, std::max(min_segno, max_segno));
}

}  // namespace ckptsim::postgres
