// models/os/dirty_throttle.h
//
// Writer throttling: the dirty limits and balance_dirty_pages
// (mm/page-writeback.c), one strategy per kernel generation, chosen once
// from os.throttle (dirty_throttle.cpp says how each works). The throttle
// owns what page-writeback.c keeps to itself: the thresholds computed from
// memory (dirty_limits.h), the smoothed global_dirty_limit, dirty_exceeded
// (a field of the bdi in Linux; only the data device's is ever read here),
// and each task's dirtying debt.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/os/bdi_writeback.h"
#include "models/os/dirty_limits.h"
#include "models/os/file_system.h"
#include "models/os/os_config.h"
#include "models/os/page_cache.h"
#include "sim/process.h"
#include "sim/simulator.h"

namespace ckptsim::os {

// A task's dirty-throttling fields (task_struct).
struct DirtierState {
  std::int64_t nr_dirtied = 0;         // pages since the last balance_dirty_pages
  std::int64_t nr_dirtied_pause = 32;  // pages before the next check
  sim::Time dirty_paused_when = 0;
  sim::Time last_dirtied = -sim::kSecond;
};

// The memory the dirty limits are computed from.
struct Memory {
  sim::Bytes ram = 16 * sim::kGiB;
  sim::Bytes shared_memory = 0;  // shared_buffers etc.: anon/shmem, never reclaimed
};

class DirtyThrottle {
 public:
  DirtyThrottle(sim::Simulator& sim, const OsConfig& config, const Memory& memory, const PageCache& cache);
  virtual ~DirtyThrottle() = default;
  DirtyThrottle(const DirtyThrottle&) = delete;
  DirtyThrottle& operator=(const DirtyThrottle&) = delete;

  // global_dirty_limits, now.
  DirtyLimits limits() const { return global_dirty_limits(config_, memory_pages()); }
  // Dirty above the background threshold: the flushers' background work goes on.
  bool over_bground_thresh() const;
  // The limit, pages, that sizes `bdi`'s writeback chunks: global_dirty_limit
  // (smoothed by the IO-less throttle) for the device writers are balanced
  // against, the first limit for another (it has no share of its own here).
  double dirty_limit(const BdiWriteback& bdi) const noexcept {
    return &bdi == balanced_ ? global_dirty_limit_ : initial_dirty_limit_;
  }

  // A task registered with the kernel (pids are dense, from 1).
  void add_task(int pid) { dirtiers_.resize(static_cast<std::size_t>(pid) + 1); }
  // balance_dirty_pages_ratelimited's count: the task dirtied `pages` more
  // pages; true when it is due for balance().
  bool dirtied(const OsTask& task, std::int64_t pages);
  // balance_dirty_pages for a task that dirtied its nr_dirtied_pause pages,
  // against `bdi` (the data device: both generations compare global figures).
  sim::Task<> balance(OsTask& task, BdiWriteback& bdi) {
    balanced_ = &bdi;
    return balance_dirty_pages(task, bdi);
  }

  std::int64_t pauses() const noexcept { return pauses_; }
  sim::Duration max_pause() const noexcept { return max_pause_; }
  sim::Duration paused() const noexcept { return paused_; }

 protected:
  DirtierState& dirtier(const OsTask& task) { return dirtiers_[static_cast<std::size_t>(task.pid)]; }
  std::int64_t dirty_pages() const { return cache_.dirty() * kPagesPerBlock; }          // Dirty
  std::int64_t writeback_pages() const { return cache_.writeback() * kPagesPerBlock; }  // Writeback
  // Tasks that dirtied pages in the last 200 ms.
  int recent_dirtiers() const;
  // The writer sleeps `pause`, counted.
  sim::Task<> sleep_throttled(sim::Duration pause);

  virtual sim::Task<> balance_dirty_pages(OsTask& task, BdiWriteback& bdi) = 0;

  sim::Simulator& sim_;
  double global_dirty_limit_;
  bool dirty_exceeded_ = false;

 private:
  MemoryPages memory_pages() const;

  const OsConfig& config_;
  const Memory memory_;
  const PageCache& cache_;
  double initial_dirty_limit_;
  const BdiWriteback* balanced_ = nullptr;
  std::vector<DirtierState> dirtiers_;  // by pid
  std::int64_t pauses_ = 0;
  sim::Duration max_pause_ = 0;
  sim::Duration paused_ = 0;
};

// "io-less" (3.2+) or "writer-writeback" (<= 3.1), as os.throttle says.
std::unique_ptr<DirtyThrottle> make_dirty_throttle(sim::Simulator& sim, const OsConfig& config, const Memory& memory,
                                                   const PageCache& cache);

}  // namespace ckptsim::os
