// models/postgres/checkpoint_write.cpp
//
// BufferSync and CheckpointWriteDelay (see checkpoint_write.h).
#include "models/postgres/checkpoint_write.h"

#include <algorithm>
#include <cmath>

namespace ckptsim::postgres {

namespace {
constexpr int kWritesPerAbsorb = 1000;  // WRITES_PER_ABSORB
constexpr sim::Duration kWriteNap = 100 * sim::kMillisecond;
}  // namespace

CheckpointWriter::CheckpointWriter(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, SyncQueue& queue,
                                   const PostgresConfig& config, Version version, Stats& stats,
                                   CheckpointSchedule& schedule, const CheckpointRequests& requests)
    : sim_(sim),
      cpus_(cpus),
      bufmgr_(bufmgr),
      queue_(queue),
      config_(config),
      version_(version),
      stats_(stats),
      schedule_(schedule),
      requests_(requests) {
  todo_.reserve(static_cast<std::size_t>(bufmgr.pool().size()));
}

sim::Task<> CheckpointWriter::buffer_sync(PgProc& proc, int flags, BackgroundWriter* bgwriter) {
  start_ = sim_.now();
  written_ = 0;
  co_await write_all(proc, flags, bgwriter);
  end_ = sim_.now();
}

sim::Task<> CheckpointWriter::write_all(PgProc& proc, int flags, BackgroundWriter* bgwriter) {
  bufmgr_.mark_checkpoint_buffers(todo_);
  const BufferId nbuffers = bufmgr_.pool().size();
  const auto num_to_scan = static_cast<std::int64_t>(todo_.size());
  if (cpus_ != nullptr) co_await cpus_->use(nbuffers * kCpuPerBufferScan);
  absorb_counter_ = kWritesPerAbsorb;
  if (num_to_scan == 0) co_return;

  if (version_.sorted_buffer_sync_loop()) {
    if (config_.checkpoint_sorting) {
      std::sort(todo_.begin(), todo_.end(),
                [](const BufferManager::CkptSortItem& a, const BufferManager::CkptSortItem& b) {
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
    BufferId id = bufmgr_.pool().clock_hand();
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

sim::Task<bool> CheckpointWriter::write_buffer(PgProc& proc, BufferId id) {
  const BufferManager::SyncResult r = co_await bufmgr_.sync_one_buffer(proc, id, false);
  if (!r.written) co_return false;  // someone else wrote it since it was marked
  ++stats_.buffers_checkpoint;
  ++written_;
  if (cpus_ != nullptr) co_await cpus_->use(kCpuPerBufferWrite);
  co_return true;
}

sim::Task<> CheckpointWriter::write_delay(PgProc& proc, int flags, double progress, BackgroundWriter* bgwriter) {
  const bool immediate_pending = requests_.pending(kCheckpointImmediate);
  if (!(flags & kCheckpointImmediate) && !immediate_pending && schedule_.on_schedule(progress)) {
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

}  // namespace ckptsim::postgres
