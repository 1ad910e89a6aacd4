// tests/sim/test_timer.cpp
//
// Callback timers: cancellation, rescheduling, lazy deletion of stale
// entries, and timers destroyed while pending.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <vector>

#include "sim/simulator.h"
#include "sim/timer.h"

using namespace ckptsim::sim;

TEST_CASE("a cancelled timer never fires") {
  Simulator sim;
  int fired = 0;
  Timer t(sim, [&] { ++fired; });
  t.schedule_at(50);
  CHECK(t.pending());
  t.cancel();
  CHECK_FALSE(t.pending());
  sim.run();
  CHECK(fired == 0);
  CHECK(sim.events_processed() == 0);  // the stale entry is skipped, not counted
}

TEST_CASE("rescheduling a pending timer moves it (one firing, at the new time)") {
  Simulator sim;
  std::vector<Time> fired;
  Timer t(sim, [&] { fired.push_back(sim.now()); });
  t.schedule_at(50);
  t.schedule_at(20);  // earlier
  t.schedule_in(80);  // later again: the only firing left
  CHECK(t.when() == 80);
  sim.run();
  CHECK(fired == std::vector<Time>{80});
}

TEST_CASE("cancelled entries do not keep run() going nor move the clock") {
  Simulator sim;
  int fired = 0;
  Timer keep(sim, [&] { ++fired; });
  Timer drop(sim, [&] { ++fired; });
  keep.schedule_at(10);
  drop.schedule_at(1000);
  drop.cancel();
  sim.run();
  CHECK(fired == 1);
  CHECK(sim.now() == 10);  // not 1000: the cancelled entry is not an event
  CHECK(sim.queued_events() == 0);
}

TEST_CASE("a timer can reschedule itself from its callback (a periodic tick)") {
  Simulator sim;
  std::vector<Time> ticks;
  std::unique_ptr<Timer> t;
  t = std::make_unique<Timer>(sim, [&] {
    ticks.push_back(sim.now());
    if (ticks.size() < 4) t->schedule_in(25);
  });
  t->schedule_at(0);
  sim.run();
  CHECK(ticks == std::vector<Time>{0, 25, 50, 75});
  CHECK_FALSE(t->pending());
}

TEST_CASE("a timer destroyed while pending never fires, and its slot is reused safely") {
  Simulator sim;
  int old_fired = 0;
  int new_fired = 0;
  auto old_timer = std::make_unique<Timer>(sim, [&] { ++old_fired; });
  old_timer->schedule_at(10);
  old_timer.reset();
  Timer new_timer(sim, [&] { ++new_fired; });  // takes the freed slot
  new_timer.schedule_at(20);
  sim.run();
  CHECK(old_fired == 0);
  CHECK(new_fired == 1);  // the old entry at t=10 did not fire it early
  CHECK(sim.now() == 20);
}

TEST_CASE("stale entries are reclaimed: a timer moved a million times keeps the queue small") {
  Simulator sim;
  int fired = 0;
  Timer t(sim, [&] { ++fired; });
  for (Time i = 1; i <= 1'000'000; ++i) t.schedule_at(i);
  // Reclaimed once stale entries exceed 1024 and half the queue: never more
  // than ~2 * 1024 entries are held for one timer.
  CHECK(sim.queued_events() <= 2050);
  sim.run();
  CHECK(fired == 1);
  CHECK(sim.now() == 1'000'000);
}

TEST_CASE("an exception thrown by a timer callback propagates out of run()") {
  Simulator sim;
  Timer t(sim, [] { throw std::runtime_error("device fault"); });
  t.schedule_at(5);
  CHECK_THROWS_WITH_AS(sim.run(), "device fault", std::runtime_error);
  CHECK(sim.now() == 5);
}
