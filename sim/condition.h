// sim/condition.h
//
// A condition variable for processes: `co_await cond.wait()` parks the
// caller until another process or a timer calls notify_one()/notify_all().
// Typical use: a backend waiting for a free buffer, the WAL writer waiting
// for work. As with any condition variable, the waiter re-checks its
// predicate after waking.
//
// Woken waiters are resumed through the event queue at the current time, in
// the order they started waiting; never inline inside notify, so a notifier
// is never re-entered. A notify with nobody waiting is lost.
#pragma once

#include <coroutine>
#include <cstddef>

#include "sim/simulator.h"
#include "sim/wait_list.h"

namespace ckptsim::sim {

class Condition {
 public:
  explicit Condition(Simulator& sim) noexcept : sim_(sim) {}
  Condition(const Condition&) = delete;
  Condition& operator=(const Condition&) = delete;

  class WaitAwaiter {
   public:
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> self) noexcept {
      node_.coroutine = self;
      cond_.waiters_.push_back(node_);
    }
    void await_resume() const noexcept {}

   private:
    friend class Condition;
    explicit WaitAwaiter(Condition& cond) noexcept : cond_(cond) {}
    Condition& cond_;
    Waiter node_;
  };

  WaitAwaiter wait() noexcept { return WaitAwaiter(*this); }
  void notify_one();
  void notify_all();
  std::size_t waiters() const noexcept { return waiters_.size(); }
  const Simulator& simulator() const noexcept { return sim_; }

 private:
  Simulator& sim_;
  WaitList<Waiter> waiters_;
};

}  // namespace ckptsim::sim
