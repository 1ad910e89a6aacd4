// models/postgres/checkpointer.cpp
//
// The checkpointer's loop, CreateCheckPoint, BufferSync, pacing, sync phase.
#include "models/postgres/checkpointer.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ckptsim::postgres {

namespace {
constexpr int kWritesPerAbsorb = 1000;  // WRITES_PER_ABSORB
constexpr int kFsyncsPerAbsorb = 10;    // FSYNCS_PER_ABSORB
constexpr sim::Duration kWriteNap = 100 * sim::kMillisecond;
constexpr int kCheckpointRecordBytes = 114;  // XLOG_CHECKPOINT_ONLINE: header + CheckPoint struct
}  // namespace

Checkpointer::Checkpointer(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, Wal& wal, SyncQueue& queue,
                           const PostgresConfig& config, Version version, Stats& stats)
    : sim_(sim),
      cpus_(cpus),
      bufmgr_(bufmgr),
      pool_(bufmgr.pool()),
      wal_(wal),
      queue_(queue),
      config_(config),
      version_(version),
      stats_(stats),
      latch_(sim) {
  // CalculateCheckpointSegments.
  if (version.has_max_wal_size()) {
    const double segs = static_cast<double>(config.max_wal_size / kWalSegmentBytes);
    cps_ = static_cast<std::int64_t>(segs / (version.cps_divisor_base() + config.checkpoint_completion_target));
  } else {
    cps_ = config.checkpoint_segments;
  }
  cps_ = std::max<std::int64_t>(cps_, 1);
  todo_.reserve(static_cast<std::size_t>(pool_.size()));
  prior_redo_ = last_record_end_ = wal.insert_lsn();
}

void Checkpointer::request(int flags) {
  requested_flags_ |= flags;
  requested_ = true;
  latch_.set();
}

void Checkpointer::wal_segment_finished(std::int64_t segno) {
  // XLogCheckpointNeeded: the redo point's segment plus CheckPointSegments - 1.
  const std::int64_t redo_segno = wal_.redo_ptr() / kWalSegmentBytes;
  if (segno >= redo_segno + cps_ - 1 && !(requested_ && (requested_flags_ & kCheckpointCauseXlog))) {
    request(kCheckpointCauseXlog);
  }
}

sim::Process Checkpointer::run(PgProc& proc, BackgroundWriter* bgwriter) {
  last_checkpoint_time_ = now_seconds();
  for (;;) {
    queue_.absorb();
    bool do_checkpoint = false;
    int flags = 0;
    if (requested_) {
      do_checkpoint = true;
      flags = requested_flags_;
      requested_ = false;
      requested_flags_ = 0;
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
        log_(sim_.now(), log_prefix(sim_.now(), pid_) +
                             fmt::format("checkpoints are occurring too frequently ({} second{} apart)", elapsed,
                                         elapsed == 1 ? "" : "s"));
        log_(sim_.now(), log_prefix(sim_.now(), pid_, "HINT") +
                             fmt::format("Consider increasing the configuration parameter \"{}\".",
                                         version_.has_max_wal_size() ? "max_wal_size" : "checkpoint_segments"));
      }
      ckpt_start_lsn_ = wal_.insert_lsn();
      ckpt_start_time_ = now;
      ckpt_cached_elapsed_ = 0;
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
  // A timed checkpoint with nothing logged since the previous one is skipped, silently.
  if (!(flags & (kCheckpointForce | kCheckpointShutdown)) && wal_.insert_lsn() == last_record_end_) co_return;

  const Lsn redo = wal_.set_redo_ptr();
  phase_ = CheckpointPhase::Write;
  if (config_.log_checkpoints && log_) log_(start, log_prefix(start, pid_) + checkpoint_starting_message(version_, flags));

  write_start_ = sim_.now();
  written_this_checkpoint_ = 0;
  co_await buffer_sync(proc, flags, bgwriter);
  const sim::Time sync_start = sim_.now();
  write_end_ = sync_start;
  const Lsn write_end_lsn = wal_.insert_lsn();
  phase_ = CheckpointPhase::Sync;

  CheckpointEnd end;
  co_await sync_phase(proc, end);
  const sim::Time sync_end = sim_.now();

  // The checkpoint record, flushed: from now on recovery starts at `redo`.
  const Lsn record_end = co_await wal_.insert(proc, kCheckpointRecordBytes);
  co_await wal_.flush(proc, record_end);
  last_record_end_ = record_end;

  // UpdateCheckPointDistanceEstimate: fast up, slow down.
  const auto distance = static_cast<double>(redo - prior_redo_);
  distance_estimate_ = distance_estimate_ < distance ? distance : 0.90 * distance_estimate_ + 0.10 * distance;
  const Lsn keep = version_.keeps_previous_checkpoint_wal() ? prior_redo_ : redo;
  const Wal::SegmentCounts counts = wal_.remove_old_segments(keep, recycle_limit_segno(redo));
  end.segs_added = co_await wal_.preallocate(proc);
  end.segs_removed = counts.removed;
  end.segs_recycled = counts.recycled;
  end.distance_bytes = redo - prior_redo_;
  end.estimate_bytes = distance_estimate_;
  prior_redo_ = redo;
  completed_redo_ = redo;

  const sim::Time finish = sim_.now();
  end.buffers_written = written_this_checkpoint_;
  end.nbuffers = pool_.size();
  end.write = sync_start - write_start_;
  end.sync = sync_end - sync_start;
  end.total = finish - start;
  end.checkpoint_lsn = record_end - kCheckpointRecordBytes;
  end.redo_lsn = redo;
  stats_.checkpoint_write_time += sim::to_millis(end.write);
  stats_.checkpoint_sync_time += sim::to_millis(end.sync);
  ++stats_.checkpoints_done;
  if (config_.log_checkpoints && log_) log_(finish, log_prefix(finish, pid_) + checkpoint_complete_message(version_, end));

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

sim::Task<> Checkpointer::buffer_sync(PgProc& proc, int flags, BackgroundWriter* bgwriter) {
  bufmgr_.mark_checkpoint_buffers(todo_);
  const BufferId nbuffers = pool_.size();
  const auto num_to_scan = static_cast<std::int64_t>(todo_.size());
  if (cpus_ != nullptr) co_await cpus_->use(nbuffers * kCpuPerBufferScan);
  absorb_counter_ = kWritesPerAbsorb;
  if (num_to_scan == 0) co_return;

  if (version_.sorted_buffer_sync_loop()) {
    if (config_.checkpoint_sorting) {
      std::sort(todo_.begin(), todo_.end(), [](const BufferManager::CkptSortItem& a, const BufferManager::CkptSortItem& b) {
        return a.rel != b.rel ? a.rel < b.rel : a.block != b.block ? a.block < b.block : a.buf < b.buf;
      });
      if (cpus_ != nullptr) {
        const double n = static_cast<double>(num_to_scan);
        co_await cpus_->use(static_cast<sim::Duration>(n * std::log2(n + 1) * 10.0));  // ~10 ns per comparison
      }
    }
    std::int64_t processed = 0;
    for (const BufferManager::CkptSortItem& item : todo_) {
      ++processed;
      if (bufmgr_.checkpoint_needed(item.buf)) co_await write_buffer(proc, item.buf);
      co_await write_delay(proc, flags, static_cast<double>(processed) / static_cast<double>(num_to_scan), bgwriter);
    }
  } else {
    // 9.5-: round the pool from the clock hand; only our own writes count as progress.
    BufferId id = pool_.clock_hand();
    std::int64_t num_written = 0;
    for (BufferId n = 0; n < nbuffers; ++n) {
      if (bufmgr_.checkpoint_needed(id) && co_await write_buffer(proc, id)) {
        if (++num_written >= num_to_scan) break;
        co_await write_delay(proc, flags, static_cast<double>(num_written) / static_cast<double>(num_to_scan),
                             bgwriter);
      }
      if (++id == nbuffers) id = 0;
    }
  }
  if (proc.writeback != nullptr) co_await proc.writeback->issue(proc);
}

sim::Task<bool> Checkpointer::write_buffer(PgProc& proc, BufferId id) {
  const BufferManager::SyncResult r = co_await bufmgr_.sync_one_buffer(proc, id, false);
  if (!r.written) co_return false;  // someone else wrote it since it was marked
  ++stats_.buffers_checkpoint;
  ++written_this_checkpoint_;
  if (cpus_ != nullptr) co_await cpus_->use(kCpuPerBufferWrite);
  co_return true;
}

bool Checkpointer::on_schedule(double progress) {
  progress *= config_.checkpoint_completion_target;
  if (progress < ckpt_cached_elapsed_) return false;  // behind last time we looked: still behind
  const double elapsed_xlogs = static_cast<double>(wal_.insert_lsn() - ckpt_start_lsn_) /
                               static_cast<double>(kWalSegmentBytes) / static_cast<double>(cps_);
  if (progress < elapsed_xlogs) {
    ckpt_cached_elapsed_ = elapsed_xlogs;
    return false;
  }
  // The start time has one-second resolution (pg_time_t); now has microseconds.
  const double elapsed_time = (sim::to_seconds(sim_.now()) - static_cast<double>(ckpt_start_time_)) /
                              sim::to_seconds(config_.checkpoint_timeout);
  if (progress < elapsed_time) {
    ckpt_cached_elapsed_ = elapsed_time;
    return false;
  }
  return true;
}

sim::Task<> Checkpointer::write_delay(PgProc& proc, int flags, double progress, BackgroundWriter* bgwriter) {
  const bool immediate_pending = requested_ && (requested_flags_ & kCheckpointImmediate);
  if (!(flags & kCheckpointImmediate) && !immediate_pending && on_schedule(progress)) {
    queue_.absorb();
    absorb_counter_ = kWritesPerAbsorb;
    if (bgwriter != nullptr) {
      // 9.1-: the combined process cleans the LRU only here, then naps bgwriter_delay.
      co_await bgwriter->buffer_sync(proc);
      co_await sim_.sleep(config_.bgwriter_delay);
    } else {
      co_await sim_.sleep(kWriteNap);
    }
  } else if (--absorb_counter_ <= 0) {
    queue_.absorb();
    absorb_counter_ = kWritesPerAbsorb;
  }
}

sim::Task<> Checkpointer::sync_phase(PgProc& proc, CheckpointEnd& end) {
  const std::vector<SegmentId>& to_sync = queue_.start_sync_cycle();
  int absorb_counter = kFsyncsPerAbsorb;
  std::int64_t total_us = 0;  // per-file fsync times in microseconds, as 9.1+ logs them
  std::int64_t longest_us = 0;
  for (const SegmentId seg : to_sync) {
    if (!queue_.pending(seg)) continue;
    if (!config_.fsync) {
      // ProcessSyncRequests: with fsync off each entry is dropped, unsynced and uncounted (sync files=0).
      queue_.forget(seg);
      continue;
    }
    if (--absorb_counter <= 0) {
      queue_.absorb();
      absorb_counter = kFsyncsPerAbsorb;
    }
    const sim::Time t0 = sim_.now();
    co_await bufmgr_.relations().fsync(proc, seg);
    const sim::Duration dt = sim_.now() - t0;
    queue_.forget(seg);
    ++end.sync_files;
    ++stats_.checkpointer_fsyncs;
    total_us += dt / sim::kMicrosecond;
    longest_us = std::max(longest_us, dt / sim::kMicrosecond);
  }
  end.total_sync_us = total_us;
  end.longest_sync_us = longest_us;
}

}  // namespace ckptsim::postgres
