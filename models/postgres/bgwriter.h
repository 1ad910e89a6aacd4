// models/postgres/bgwriter.h
//
// The background writer's LRU cleaning: BgBufferSync in bufmgr.c (the same
// algorithm from 8.3 to 17), and the 9.2+ process loop of bgwriter.c.
//
// Every bgwriter_delay it estimates how many buffers backends will allocate
// before the next round (a fast-attack, slow-decay average of recent
// allocations times bgwriter_lru_multiplier, in single-precision floats as
// PostgreSQL keeps them), and scans ahead of the clock hand, never more than
// one lap (bufs_to_lap), until it has that many reusable buffers in front of
// the hand, writing the dirty ones with usage_count 0 and no pin, at most
// bgwriter_lru_maxpages per round (maxwritten_clean). It scans at least
// NBuffers / (120 s / bgwriter_delay) buffers per round, so that the whole
// pool is covered every two minutes. A round that found nothing to do after
// one that also did not lets it hibernate for 50 * bgwriter_delay, until the
// next buffer allocation wakes it (9.2+).
//
// Up to 9.1 the same code runs inside the combined bgwriter/checkpointer
// (see checkpointer.h), without the float-underflow reset of smoothed_alloc.
// Left out: the running-xacts WAL record every 15 s (standby snapshots).
#pragma once

#include <cstdint>

#include "models/postgres/bufmgr.h"
#include "models/postgres/latch.h"
#include "models/postgres/postgres_config.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

class BackgroundWriter {
 public:
  BackgroundWriter(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, const PostgresConfig& config,
                   Version version, Stats& stats);

  // BgBufferSync: one round; returns whether the bgwriter may hibernate.
  sim::Task<bool> buffer_sync(PgProc& proc);

  // The 9.2+ process: rounds every bgwriter_delay, hibernation.
  sim::Process run(PgProc& proc);

  // What the last round did (for tests and the validation script).
  struct Round {
    std::int64_t bufs_to_lap = 0;
    std::int64_t upcoming_alloc_est = 0;
    std::int64_t reusable_est = 0;
    std::int64_t scanned = 0;
    std::int64_t written = 0;
    std::int64_t recent_alloc = 0;
  };
  const Round& last_round() const noexcept { return last_; }
  float smoothed_alloc() const noexcept { return smoothed_alloc_; }
  float smoothed_density() const noexcept { return smoothed_density_; }
  bool hibernating() const noexcept { return hibernating_; }
  std::int64_t rounds() const noexcept { return rounds_; }
  Latch& latch() noexcept { return latch_; }

 private:
  // BgBufferSync's phases. The clock hand's progress since the last round
  // (a density sample) and how far ahead of it the previous scan got: returns bufs_to_lap.
  std::int64_t lap_position(const BufferPool::SyncStart& start);
  // smoothed_density from `scanned` buffers that yielded `allocs` reusable ones.
  void sample_density(std::int64_t scanned, std::int64_t allocs);
  // smoothed_alloc and the buffers to find this round (last_.upcoming_alloc_est, last_.reusable_est).
  void estimate(std::int64_t recent_alloc, std::int64_t bufs_to_lap);

  sim::Resource* cpus_;
  BufferManager& bufmgr_;
  BufferPool& pool_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  Latch latch_;

  // BgBufferSync's static state.
  bool saved_info_valid_ = false;
  BufferId prev_strategy_buf_id_ = 0;
  std::uint32_t prev_strategy_passes_ = 0;
  BufferId next_to_clean_ = 0;
  std::uint32_t next_passes_ = 0;
  float smoothed_alloc_ = 0;
  float smoothed_density_ = 10.0f;

  Round last_;
  bool hibernating_ = false;
  std::int64_t rounds_ = 0;
};

// CPU a background process spends per buffer it writes (the pwrite and its copy) and per
// buffer header it inspects, charged to the shared cores.
inline constexpr sim::Duration kCpuPerBufferWrite = 5 * sim::kMicrosecond;
inline constexpr sim::Duration kCpuPerBufferScan = 20 * sim::kNanosecond;

}  // namespace ckptsim::postgres
