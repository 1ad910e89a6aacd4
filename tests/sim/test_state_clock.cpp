// tests/sim/test_state_clock.cpp
//
// StateClock: every stretch of time goes to exactly one state; scopes nest
// and restore; a scope left open in a frame destroyed at teardown does not
// touch its (already destroyed) clock.
#include <doctest/doctest.h>

#include <memory>

#include "sim/process.h"
#include "sim/simulator.h"
#include "sim/state_clock.h"

using namespace ckptsim;

namespace {
enum class S : std::uint8_t { Idle, Busy, Waiting, Count };
}

TEST_CASE("the states of a clock add up to the time since it started, scopes nested and restored") {
  sim::Simulator s;
  s.run_until(7 * sim::kSecond);
  sim::StateClock<S> clock(s, S::Idle);
  s.spawn([](sim::Simulator& sim, sim::StateClock<S>& c) -> sim::Process {
    co_await sim.sleep(1 * sim::kSecond);  // Idle
    const sim::StateScope<S> busy(&c, S::Busy);
    co_await sim.sleep(2 * sim::kSecond);
    {
      const sim::StateScope<S> waiting(&c, S::Waiting);
      co_await sim.sleep(3 * sim::kSecond);
    }
    CHECK(c.state() == S::Busy);
    co_await sim.sleep(4 * sim::kSecond);
  }(s, clock));
  s.run_until(7 * sim::kSecond + 20 * sim::kSecond);
  CHECK(clock.state() == S::Idle);
  CHECK(clock.total(S::Idle) == (1 + 10) * sim::kSecond);  // before, and the 10 s after the process ended
  CHECK(clock.total(S::Busy) == 6 * sim::kSecond);
  CHECK(clock.total(S::Waiting) == 3 * sim::kSecond);
}

TEST_CASE("a scope open in a frame that the simulator destroys leaves the gone clock alone") {
  auto sim = std::make_unique<sim::Simulator>();
  auto clock = std::make_unique<sim::StateClock<S>>(*sim, S::Idle);
  sim->spawn([](sim::Simulator& s, sim::StateClock<S>& c) -> sim::Process {
    const sim::StateScope<S> waiting(&c, S::Waiting);
    co_await s.sleep(sim::kDay);
  }(*sim, *clock));
  sim->run_until(sim::kSecond);
  CHECK(clock->state() == S::Waiting);
  clock.reset();  // the owner goes first, as a model goes before the Simulator
  sim.reset();    // destroys the frame: ASan would report a write to the freed clock
  CHECK(true == true);
}
