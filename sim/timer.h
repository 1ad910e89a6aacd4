// sim/timer.h
//
// A callback timer owned by a model (the sampler's interval close, a
// checkpoint_timeout, a device's completion interrupt).
//
// The callback is stored once, at construction; scheduling costs one queue
// entry and no allocation. A timer is pending at most once: scheduling it
// again moves it, cancel() forgets it. The queue entry of a moved or
// cancelled firing stays in the heap and is skipped when it comes up (its
// sequence number no longer matches), so cancelling is O(1).
//
// A Timer must not outlive its Simulator, and cannot be moved (the simulator
// keeps its address).
#pragma once

#include <cstdint>
#include <functional>
#include <typeinfo>

#include "sim/simulator.h"
#include "sim/time.h"

namespace ckptsim::sim {

class Timer {
 public:
  Timer(Simulator& sim, std::function<void()> on_fire);
  ~Timer();
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;

  // Fires at t (clamped to now()), after events already due at t.
  void schedule_at(Time t);
  void schedule_in(Duration d);
  void cancel() noexcept;
  bool pending() const noexcept;
  // When it will fire; meaningful only while pending().
  Time when() const noexcept;

 private:
  friend class Simulator;
  void fire() { on_fire_(); }
  // The callback's type (a lambda's names the class and function it was written in): for the profile.
  const std::type_info& target_type() const noexcept { return on_fire_.target_type(); }

  Simulator& sim_;
  std::function<void()> on_fire_;
  std::uint32_t slot_;
};

}  // namespace ckptsim::sim
