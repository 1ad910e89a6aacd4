// sim/timer.cpp
//
// Timers and their slots in the Simulator. A slot outlives nothing: when a
// timer is destroyed its slot is recycled, and any entry still queued for it
// is stale by its key (keys are never reused).
#include "sim/timer.h"

#include <utility>

namespace ckptsim::sim {

Timer::Timer(Simulator& sim, std::function<void()> on_fire)
    : sim_(sim), on_fire_(std::move(on_fire)), slot_(sim.attach_timer(this)) {}

Timer::~Timer() { sim_.detach_timer(slot_); }

void Timer::schedule_at(Time t) { sim_.schedule_timer(slot_, t); }
void Timer::schedule_in(Duration d) { sim_.schedule_timer(slot_, sim_.now() + (d > 0 ? d : 0)); }
void Timer::cancel() noexcept { sim_.cancel_timer(slot_); }
bool Timer::pending() const noexcept { return sim_.timer_slots_[slot_].key != 0; }
Time Timer::when() const noexcept { return sim_.timer_slots_[slot_].when; }

std::uint32_t Simulator::attach_timer(Timer* timer) {
  std::uint32_t slot;
  if (free_timer_slots_.empty()) {
    slot = static_cast<std::uint32_t>(timer_slots_.size());
    timer_slots_.emplace_back();
  } else {
    slot = free_timer_slots_.back();
    free_timer_slots_.pop_back();
  }
  timer_slots_[slot] = TimerSlot{timer, 0, 0};
  return slot;
}

void Simulator::detach_timer(std::uint32_t slot) {
  cancel_timer(slot);
  timer_slots_[slot].timer = nullptr;
  free_timer_slots_.push_back(slot);
}

void Simulator::schedule_timer(std::uint32_t slot, Time when) {
  cancel_timer(slot);
  TimerSlot& s = timer_slots_[slot];
  s.key = next_key(kTimer);
  s.when = when > now_ ? when : now_;
  queue_.push(QueueEntry{s.when, s.key, slot});
}

void Simulator::cancel_timer(std::uint32_t slot) noexcept {
  TimerSlot& s = timer_slots_[slot];
  if (s.key == 0) return;
  s.key = 0;
  ++stale_entries_;
  // Reclaim space once stale entries are the majority of a large queue, so
  // a timer rescheduled a million times before firing costs no memory.
  if (stale_entries_ > 1024 && stale_entries_ * 2 > queue_.size()) drop_stale_entries();
}

void Simulator::drop_stale_entries() {
  queue_.retain(
      [this](const QueueEntry& e) { return (e.key & 1U) == kResume || timer_slots_[e.payload].key == e.key; });
  stale_entries_ = 0;
}

}  // namespace ckptsim::sim
