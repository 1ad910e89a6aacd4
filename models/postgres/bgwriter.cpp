// models/postgres/bgwriter.cpp
//
// BgBufferSync and the background writer's loop with hibernation.
#include "models/postgres/bgwriter.h"

namespace ckptsim::postgres {

namespace {
constexpr float kSmoothingSamples = 16;
constexpr float kScanWholePoolMilliseconds = 120000.0f;
constexpr int kHibernateFactor = 50;
}  // namespace

BackgroundWriter::BackgroundWriter(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr,
                                   const PostgresConfig& config, Version version, Stats& stats)
    : cpus_(cpus),
      bufmgr_(bufmgr),
      pool_(bufmgr.pool()),
      config_(config),
      version_(version),
      stats_(stats),
      latch_(sim) {}

std::int64_t BackgroundWriter::lap_position(const BufferPool::SyncStart& start) {
  const std::int64_t nbuffers = pool_.size();
  std::int64_t strategy_delta = 0;
  std::int64_t bufs_to_lap = nbuffers;
  if (saved_info_valid_) {
    const auto passes_delta = static_cast<std::int32_t>(start.complete_passes - prev_strategy_passes_);
    strategy_delta = start.hand - prev_strategy_buf_id_ + static_cast<std::int64_t>(passes_delta) * nbuffers;
    if (static_cast<std::int32_t>(next_passes_ - start.complete_passes) > 0) {
      bufs_to_lap = start.hand - next_to_clean_;  // exactly one lap ahead
    } else if (next_passes_ == start.complete_passes && next_to_clean_ >= start.hand) {
      bufs_to_lap = nbuffers - (next_to_clean_ - start.hand);
    } else {
      // Fallen behind the hand: start again from it.
      next_to_clean_ = start.hand;
      next_passes_ = start.complete_passes;
    }
  } else {
    next_to_clean_ = start.hand;
    next_passes_ = start.complete_passes;
  }
  prev_strategy_buf_id_ = start.hand;
  prev_strategy_passes_ = start.complete_passes;
  saved_info_valid_ = true;
  sample_density(strategy_delta, start.num_allocs);
  return bufs_to_lap;
}

void BackgroundWriter::sample_density(std::int64_t scanned, std::int64_t allocs) {
  if (scanned > 0 && allocs > 0) {
    const float scans_per_alloc = static_cast<float>(scanned) / static_cast<float>(allocs);
    smoothed_density_ += (scans_per_alloc - smoothed_density_) / kSmoothingSamples;
  }
}

void BackgroundWriter::estimate(std::int64_t recent_alloc, std::int64_t bufs_to_lap) {
  const std::int64_t nbuffers = pool_.size();
  const std::int64_t bufs_ahead = nbuffers - bufs_to_lap;
  const auto reusable_buffers_est = static_cast<std::int64_t>(static_cast<float>(bufs_ahead) / smoothed_density_);

  // Fast attack, slow decay.
  if (smoothed_alloc_ <= static_cast<float>(recent_alloc)) {
    smoothed_alloc_ = static_cast<float>(recent_alloc);
  } else {
    smoothed_alloc_ += (static_cast<float>(recent_alloc) - smoothed_alloc_) / kSmoothingSamples;
  }
  auto upcoming_alloc_est =
      static_cast<std::int64_t>(smoothed_alloc_ * static_cast<float>(config_.bgwriter_lru_multiplier));
  if (upcoming_alloc_est == 0 && version_.at_least(90200)) smoothed_alloc_ = 0;  // avoid float underflow
  // Cover the whole pool every scan_whole_pool_milliseconds even when idle.
  const auto min_scan_buffers = static_cast<std::int64_t>(
      static_cast<float>(nbuffers) /
      (kScanWholePoolMilliseconds / static_cast<float>(sim::to_millis(config_.bgwriter_delay))));
  if (upcoming_alloc_est < min_scan_buffers + reusable_buffers_est) {
    upcoming_alloc_est = min_scan_buffers + reusable_buffers_est;
  }
  last_.bufs_to_lap = bufs_to_lap;
  last_.upcoming_alloc_est = upcoming_alloc_est;
  last_.reusable_est = reusable_buffers_est;
}

sim::Task<bool> BackgroundWriter::buffer_sync(PgProc& proc) {
  ++rounds_;
  const std::int64_t nbuffers = pool_.size();
  const BufferPool::SyncStart start = pool_.strategy_sync_start();
  stats_.buffers_alloc += start.num_allocs;
  const std::int64_t recent_alloc = start.num_allocs;
  last_ = Round{};
  last_.recent_alloc = recent_alloc;

  if (config_.bgwriter_lru_maxpages <= 0) {
    saved_info_valid_ = false;
    co_return true;
  }

  // How far the clock hand moved, and how far ahead of it we already are; then how many buffers to find.
  const std::int64_t bufs_to_lap = lap_position(start);
  estimate(recent_alloc, bufs_to_lap);

  // Scan ahead of the hand, writing dirty buffers that are not recently used.
  std::int64_t num_to_scan = bufs_to_lap;
  std::int64_t num_written = 0;
  std::int64_t reusable_buffers = last_.reusable_est;
  while (num_to_scan > 0 && reusable_buffers < last_.upcoming_alloc_est) {
    const BufferManager::SyncResult r = co_await bufmgr_.sync_one_buffer(proc, next_to_clean_, true);
    if (++next_to_clean_ >= nbuffers) {
      next_to_clean_ = 0;
      ++next_passes_;
    }
    --num_to_scan;
    if (r.written) {
      ++reusable_buffers;
      if (++num_written >= config_.bgwriter_lru_maxpages) {
        ++stats_.maxwritten_clean;
        break;
      }
    } else if (r.reusable) {
      ++reusable_buffers;
    }
  }
  stats_.buffers_clean += num_written;

  // Our own scan is a second density sample.
  const std::int64_t new_strategy_delta = bufs_to_lap - num_to_scan;
  sample_density(new_strategy_delta, reusable_buffers - last_.reusable_est);
  last_.scanned = new_strategy_delta;
  last_.written = num_written;
  if (cpus_ != nullptr && (new_strategy_delta > 0 || num_written > 0)) {
    co_await cpus_->use(new_strategy_delta * kCpuPerBufferScan + num_written * kCpuPerBufferWrite);
  }
  co_return bufs_to_lap == 0 && recent_alloc == 0;
}

sim::Process BackgroundWriter::run(PgProc& proc) {
  bool prev_hibernate = false;
  for (;;) {
    const bool can_hibernate = co_await buffer_sync(proc);
    const bool woken = co_await latch_.wait(config_.bgwriter_delay);
    if (!woken && can_hibernate && prev_hibernate) {
      // Nothing to do two rounds running: sleep long, until a backend allocates a buffer.
      hibernating_ = true;
      pool_.notify_bgwriter([this] { latch_.set(); });
      co_await latch_.wait(config_.bgwriter_delay * kHibernateFactor);
      pool_.notify_bgwriter(nullptr);
      hibernating_ = false;
    }
    prev_hibernate = can_hibernate;
  }
}

}  // namespace ckptsim::postgres
