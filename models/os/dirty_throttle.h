// models/os/dirty_throttle.h
//
// Writer throttling: balance_dirty_pages (mm/page-writeback.c), one strategy
// per kernel generation, chosen once from os.throttle (dirty_throttle.cpp
// says how each works).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/os/bdi_writeback.h"
#include "models/os/dirty_limits.h"
#include "models/os/file_system.h"
#include "models/os/os_config.h"
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

// What throttling reads of the kernel.
class ThrottleHost {
 public:
  virtual DirtyLimits dirty_limits() const = 0;
  virtual std::int64_t dirty_pages() const = 0;      // Dirty
  virtual std::int64_t writeback_pages() const = 0;  // Writeback
  virtual bool over_bground_thresh() const = 0;

 protected:
  ~ThrottleHost() = default;
};

class DirtyThrottle {
 public:
  DirtyThrottle(sim::Simulator& sim, ThrottleHost& host, BdiWriteback& bdi, const std::vector<DirtierState>& dirtiers)
      : sim_(sim), host_(host), bdi_(bdi), dirtiers_(dirtiers) {}
  virtual ~DirtyThrottle() = default;
  DirtyThrottle(const DirtyThrottle&) = delete;
  DirtyThrottle& operator=(const DirtyThrottle&) = delete;

  // balance_dirty_pages for a task that has dirtied ts.nr_dirtied_pause pages since its last check.
  virtual sim::Task<> balance(OsTask& task, DirtierState& ts) = 0;

  std::int64_t pauses() const noexcept { return pauses_; }
  sim::Duration max_pause() const noexcept { return max_pause_; }
  sim::Duration paused() const noexcept { return paused_; }

 protected:
  // Tasks that dirtied pages in the last 200 ms.
  int recent_dirtiers() const;
  // The writer sleeps `pause`, counted.
  sim::Task<> sleep_throttled(sim::Duration pause);

  sim::Simulator& sim_;
  ThrottleHost& host_;
  BdiWriteback& bdi_;  // the data device: both generations compare global figures

 private:
  const std::vector<DirtierState>& dirtiers_;
  std::int64_t pauses_ = 0;
  sim::Duration max_pause_ = 0;
  sim::Duration paused_ = 0;
};

// "io-less" (3.2+) or "writer-writeback" (<= 3.1); `ram` sets the latter's ratelimit_pages.
std::unique_ptr<DirtyThrottle> make_dirty_throttle(Throttle kind, sim::Simulator& sim, ThrottleHost& host,
                                                   BdiWriteback& bdi, const std::vector<DirtierState>& dirtiers,
                                                   sim::Bytes ram);

}  // namespace ckptsim::os
