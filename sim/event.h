// sim/event.h
//
// A latch: a one-shot fact that processes can wait for, such as "this I/O
// has completed" or "the checkpoint has finished". `co_await ev` returns at
// once if the event is set, otherwise parks the caller until set().
//
// set() wakes every waiter through the event queue at the current time, in
// the order they started waiting. reset() re-arms the latch for reuse (an
// I/O slot recycled for the next request); it does not affect waiters
// already woken.
#pragma once

#include <coroutine>
#include <cstddef>

#include "sim/simulator.h"
#include "sim/wait_list.h"

namespace ckptsim::sim {

class Event {
 public:
  explicit Event(Simulator& sim) noexcept : sim_(sim) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  class WaitAwaiter {
   public:
    bool await_ready() const noexcept { return event_.set_; }
    void await_suspend(std::coroutine_handle<> self) noexcept {
      node_.coroutine = self;
      event_.waiters_.push_back(node_);
    }
    void await_resume() const noexcept {}

   private:
    friend class Event;
    explicit WaitAwaiter(Event& event) noexcept : event_(event) {}
    Event& event_;
    Waiter node_;
  };

  WaitAwaiter wait() noexcept { return WaitAwaiter(*this); }
  WaitAwaiter operator co_await() noexcept { return wait(); }

  void set();
  void reset() noexcept { set_ = false; }
  bool is_set() const noexcept { return set_; }
  std::size_t waiters() const noexcept { return waiters_.size(); }

 private:
  Simulator& sim_;
  bool set_ = false;
  WaitList<Waiter> waiters_;
};

}  // namespace ckptsim::sim
