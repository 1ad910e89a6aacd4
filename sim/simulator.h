// sim/simulator.h
//
// The discrete-event engine: a clock, the pending-event queue, and the
// processes (coroutines) and timers whose wake-ups it orders.
//
// An event is either "resume this suspended coroutine" or "fire this timer".
// Events run in order of time, then of scheduling (FIFO among equal times),
// which makes a run a pure function of the model and its seeds. Everything
// that wakes a coroutine, from a sleep to a released CPU core, goes through
// the queue: nothing resumes a coroutine inline, so a model never re-enters
// itself.
//
// The Simulator owns the frames of spawned processes. Timers and the
// synchronisation objects (Condition, Event, Resource) are owned by the
// models and must not outlive their Simulator.
//
// Left out: priorities other than FIFO, wall-clock pacing, threads (one
// Simulator runs on one thread; a grid runs one Simulator per point).
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <vector>

#include <boost/intrusive/list.hpp>

#include "sim/event_queue.h"
#include "sim/process.h"
#include "sim/time.h"

namespace ckptsim::sim {

class Timer;
class Profile;

class Simulator {
 public:
  // A Simulator made while a profile is active on its thread (profile.h,
  // `run --profile`) charges each of its events to a component of it.
  Simulator() noexcept;
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  Time now() const noexcept { return now_; }
  std::uint64_t events_processed() const noexcept { return events_processed_; }

  // Starts an actor: its first instruction runs at now(), through the queue,
  // after the events already due at this instant.
  void spawn(Process process);

  // Runs every event due at or before `until`, then sets the clock to `until`
  // (unless stop() was called). An exception escaping a process or a timer
  // callback propagates out, after the event that raised it.
  void run_until(Time until);
  // Runs until no event is pending (or stop()).
  void run();
  // Makes run()/run_until() return after the current event.
  void stop() noexcept { stopped_ = true; }
  bool stopped() const noexcept { return stopped_; }
  // True while the destructor destroys unfinished frames: their locals must
  // not touch objects that the processes used, which may be gone already.
  bool tearing_down() const noexcept { return tearing_down_; }

  class SleepAwaiter {
   public:
    bool await_ready() const noexcept { return false; }  // even a zero sleep yields
    void await_suspend(std::coroutine_handle<> self) const { sim_.resume_at(wake_, self); }
    void await_resume() const noexcept {}

   private:
    friend class Simulator;
    SleepAwaiter(Simulator& sim, Time wake) noexcept : sim_(sim), wake_(wake) {}
    Simulator& sim_;
    Time wake_;
  };
  // `co_await sim.sleep(d)`: resumes at now() + d, behind whatever is already
  // due then. A negative d counts as 0; a past t as now().
  SleepAwaiter sleep(Duration d) noexcept { return SleepAwaiter(*this, d > 0 ? now_ + d : now_); }
  SleepAwaiter sleep_until(Time t) noexcept { return SleepAwaiter(*this, t > now_ ? t : now_); }

  // For awaitables written by models (an I/O completion, a lock): queue the
  // resumption of a suspended coroutine at time t (clamped to now()).
  void resume_at(Time t, std::coroutine_handle<> coroutine) {
    queue_.push(
        QueueEntry{t > now_ ? t : now_, next_key(kResume), reinterpret_cast<std::uintptr_t>(coroutine.address())});
  }
  void resume_now(std::coroutine_handle<> coroutine) { resume_at(now_, coroutine); }

  // Queue entries, including cancelled timer entries not yet skipped.
  std::size_t queued_events() const noexcept { return queue_.size(); }
  // Processes spawned and not finished (O(n): for tests and reports).
  std::size_t live_processes() const noexcept { return processes_.size(); }

 private:
  friend class Timer;

  enum Kind : std::uint64_t { kResume = 0, kTimer = 1 };

  // A timer's place in the simulator: entries name the slot, and an entry is
  // live only while its key is the slot's key (lazy cancellation).
  struct TimerSlot {
    Timer* timer = nullptr;
    std::uint64_t key = 0;  // 0: not pending
    Time when = 0;
  };

  std::uint64_t next_key(Kind kind) noexcept { return (++sequence_ << 1) | kind; }
  void dispatch(const QueueEntry& entry);
  void dispatch_profiled(const QueueEntry& entry);
  void fire_timer(const QueueEntry& entry);
  [[noreturn]] void rethrow_failure();

  // Timer bookkeeping (timer.cpp).
  std::uint32_t attach_timer(Timer* timer);
  void detach_timer(std::uint32_t slot);
  void schedule_timer(std::uint32_t slot, Time when);
  void cancel_timer(std::uint32_t slot) noexcept;
  void drop_stale_entries();

  using ProcessList = boost::intrusive::list<Process::promise_type, boost::intrusive::constant_time_size<false>>;

  Time now_ = 0;
  std::uint64_t sequence_ = 0;
  std::uint64_t events_processed_ = 0;
  bool stopped_ = false;
  bool tearing_down_ = false;
  std::exception_ptr failure_;  // set by a process whose body threw
  Profile* profile_;
  EventQueue queue_;
  ProcessList processes_;
  std::vector<TimerSlot> timer_slots_;
  std::vector<std::uint32_t> free_timer_slots_;
  std::size_t stale_entries_ = 0;  // cancelled timer entries still in queue_
};

}  // namespace ckptsim::sim
