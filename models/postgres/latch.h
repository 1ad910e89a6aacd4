// models/postgres/latch.h
//
// A process latch (storage/ipc/latch.c): SetLatch from anyone, and
// WaitLatch(WL_LATCH_SET | WL_TIMEOUT) by its owner, which returns early
// when the latch is set and resets it. The bgwriter, checkpointer and WAL
// writer sleep on theirs between rounds.
#pragma once

#include "sim/process.h"
#include "sim/sync.h"
#include "sim/timer.h"

namespace ckptsim::postgres {

class Latch {
 public:
  explicit Latch(sim::Simulator& sim)
      : cond_(sim), timer_(sim, [this] {
          timed_out_ = true;
          cond_.notify_all();
        }) {}
  Latch(const Latch&) = delete;
  Latch& operator=(const Latch&) = delete;

  void set() {
    if (set_) return;
    set_ = true;
    cond_.notify_all();
  }
  bool is_set() const noexcept { return set_; }

  // True if woken by set(), false if the timeout passed. The latch is reset either way.
  sim::Task<bool> wait(sim::Duration timeout) {
    if (!set_) {
      timed_out_ = false;
      timer_.schedule_in(timeout);
      while (!set_ && !timed_out_) co_await cond_.wait();
      timer_.cancel();
    }
    const bool woken = set_;
    set_ = false;
    co_return woken;
  }

 private:
  sim::Condition cond_;
  sim::Timer timer_;
  bool set_ = false;
  bool timed_out_ = false;
};

}  // namespace ckptsim::postgres
