// sim/state_clock.h
//
// Where a process's time goes, exactly: the process is in one state at a
// time, and the clock adds each stretch of simulated time to the state it
// was spent in. PostgreSQL can only sample a backend's wait_event_info and
// Linux's delay accounting (kernel/delayacct.c) only counts a few kinds of
// delay; a simulator knows every transition, so the totals of one clock
// always add up to the time since it started.
//
// StateScope is pgstat_report_wait_start / pgstat_report_wait_end as a
// scope: it enters a state and, at its end, returns to the state it found.
// Scopes nest (the innermost wins). A scope still open in a coroutine frame
// that the Simulator destroys at teardown leaves the clock alone, since the
// clock's owner may already be gone.
#pragma once

#include <array>
#include <cstddef>

#include "sim/simulator.h"
#include "sim/time.h"

namespace ckptsim::sim {

// `State` is an enum whose last enumerator is `Count`. A clock without a
// Simulator (default-constructed) stands still.
template <typename State>
class StateClock {
 public:
  static constexpr std::size_t kStates = static_cast<std::size_t>(State::Count);

  StateClock() noexcept = default;
  StateClock(const Simulator& sim, State initial) noexcept : sim_(&sim), state_(initial), since_(sim.now()) {}

  const Simulator* simulator() const noexcept { return sim_; }
  State state() const noexcept { return state_; }
  // Switches to `next` now; returns the state left.
  State enter(State next) noexcept {
    const Time t = now();
    totals_[index(state_)] += t - since_;
    since_ = t;
    const State left = state_;
    state_ = next;
    return left;
  }
  // Time spent in `s` so far, the current stretch included.
  Duration total(State s) const noexcept { return totals_[index(s)] + (s == state_ ? now() - since_ : 0); }

 private:
  static constexpr std::size_t index(State s) noexcept { return static_cast<std::size_t>(s); }
  Time now() const noexcept { return sim_ != nullptr ? sim_->now() : since_; }

  const Simulator* sim_ = nullptr;
  State state_{};
  Time since_ = 0;
  std::array<Duration, kStates> totals_{};
};

template <typename State>
class [[nodiscard]] StateScope {
 public:
  // A null clock makes the scope do nothing (a process whose time nobody accounts).
  StateScope(StateClock<State>* clock, State state) noexcept
      : clock_(clock), sim_(clock != nullptr ? clock->simulator() : nullptr) {
    if (clock_ != nullptr) left_ = clock_->enter(state);
  }
  ~StateScope() {
    if (clock_ != nullptr && (sim_ == nullptr || !sim_->tearing_down())) clock_->enter(left_);
  }
  StateScope(const StateScope&) = delete;
  StateScope& operator=(const StateScope&) = delete;

 private:
  StateClock<State>* clock_;
  const Simulator* sim_;  // copied: at teardown the clock may be gone
  State left_{};
};

}  // namespace ckptsim::sim
