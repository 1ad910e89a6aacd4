// sim/simulator.cpp
//
// The event loop, spawning, and the teardown of unfinished processes.
#include "sim/simulator.h"

#include <chrono>

#include "sim/profile.h"
#include "sim/timer.h"

namespace ckptsim::sim {

Simulator::~Simulator() {
  // Frames may still be suspended anywhere (a sleep, a wait list, a task).
  // Destroying one runs the destructors of its locals, which may touch this
  // Simulator (a Timer in the frame), so the members are still alive here.
  tearing_down_ = true;
  while (!processes_.empty()) {
    Process::promise_type& promise = processes_.front();
    processes_.pop_front();
    std::coroutine_handle<Process::promise_type>::from_promise(promise).destroy();
  }
  queue_.clear();
}

void Simulator::spawn(Process process) {
  std::coroutine_handle<Process::promise_type> frame = process.release();
  frame.promise().failure_ = &failure_;
  processes_.push_back(frame.promise());
  resume_now(frame);
}

inline void Simulator::dispatch(const QueueEntry& entry) {
  if ((entry.key & 1U) == kResume) {
    now_ = entry.time;
    ++events_processed_;
    std::coroutine_handle<>::from_address(reinterpret_cast<void*>(entry.payload)).resume();
    if (failure_) [[unlikely]] {
      rethrow_failure();
    }
  } else {
    fire_timer(entry);
  }
}

Simulator::Simulator() noexcept : profile_(active_profile) {}

void Simulator::dispatch_profiled(const QueueEntry& entry) {
  int component = 0;
  if ((entry.key & 1U) == kResume) {
    component = profile_->component_of_frame(reinterpret_cast<void*>(entry.payload));
  } else {
    const TimerSlot& slot = timer_slots_[entry.payload];
    if (slot.key != entry.key) {  // a stale entry: the queue's work, no event
      dispatch(entry);
      return;
    }
    component = profile_->component_of(slot.timer->target_type());
  }
  const auto start = std::chrono::steady_clock::now();
  dispatch(entry);
  profile_->charge(component, std::chrono::steady_clock::now() - start);
}

void Simulator::fire_timer(const QueueEntry& entry) {
  TimerSlot& slot = timer_slots_[entry.payload];
  if (slot.key != entry.key) {  // cancelled or rescheduled since
    --stale_entries_;
    return;
  }
  slot.key = 0;
  now_ = entry.time;
  ++events_processed_;
  slot.timer->fire();
}

void Simulator::rethrow_failure() {
  std::exception_ptr failure = std::exchange(failure_, nullptr);
  std::rethrow_exception(failure);
}

void Simulator::run_until(Time until) {
  stopped_ = false;
  while (!stopped_ && !queue_.empty() && queue_.top().time <= until) {
    if (profile_ != nullptr) [[unlikely]] {
      dispatch_profiled(queue_.pop());
    } else {
      dispatch(queue_.pop());
    }
  }
  if (!stopped_ && until > now_) now_ = until;
}

void Simulator::run() {
  stopped_ = false;
  while (!stopped_ && !queue_.empty()) {
    if (profile_ != nullptr) [[unlikely]] {
      dispatch_profiled(queue_.pop());
    } else {
      dispatch(queue_.pop());
    }
  }
}

}  // namespace ckptsim::sim
