// tests/sim/test_event_order.cpp
//
// The order in which the engine runs events: by time, FIFO among equal
// times, sleeps (even of zero) behind what is already due, and the clock
// rules of run_until / run / stop.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/simulator.h"
#include "sim/timer.h"

using namespace ckptsim::sim;

namespace {

struct Trace {
  std::vector<std::string> lines;
};

Process sleeper(Simulator& sim, Trace& trace, std::string name, Duration d) {
  co_await sim.sleep(d);
  trace.lines.push_back(name + "@" + std::to_string(sim.now()));
}

}  // namespace

TEST_CASE("processes spawned in the same instant start in spawn order") {
  Simulator sim;
  Trace trace;
  for (const char* name : {"a", "b", "c", "d"}) sim.spawn(sleeper(sim, trace, name, 0));
  sim.run();
  CHECK(trace.lines == std::vector<std::string>{"a@0", "b@0", "c@0", "d@0"});
}

TEST_CASE("events due at the same time run in insertion (FIFO) order") {
  Simulator sim;
  Trace trace;
  // Timers scheduled for t=100 in the order c, a, b fire in that order.
  Timer c(sim, [&] { trace.lines.push_back("c"); });
  Timer a(sim, [&] { trace.lines.push_back("a"); });
  Timer b(sim, [&] { trace.lines.push_back("b"); });
  c.schedule_at(100);
  a.schedule_at(100);
  b.schedule_at(100);
  sim.run();
  CHECK(trace.lines == std::vector<std::string>{"c", "a", "b"});
  CHECK(sim.now() == 100);
}

TEST_CASE("events run in time order whatever the insertion order") {
  Simulator sim;
  Trace trace;
  const Duration delays[] = {50, 10, 40, 30, 20, 0, 60};
  for (Duration d : delays) {
    std::string name = "p";
    name += std::to_string(d);  // not "p" + ...: g++ 12 warns falsely (-Wrestrict) on that form
    sim.spawn(sleeper(sim, trace, name, d));
  }
  sim.run();
  CHECK(trace.lines == std::vector<std::string>{"p0@0", "p10@10", "p20@20", "p30@30", "p40@40", "p50@50", "p60@60"});
}

TEST_CASE("many random insertions pop in (time, insertion) order") {
  // 5000 timers at times drawn from a small range so that ties are common:
  // the heap must give exactly the stable sort of (time, insertion index).
  Simulator sim;
  std::vector<std::pair<Time, int>> expected;
  std::vector<std::pair<Time, int>> fired;
  std::vector<std::unique_ptr<Timer>> timers;
  std::uint64_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const Time t = static_cast<Time>((x >> 33) % 97);
    timers.push_back(std::make_unique<Timer>(sim, [&, i, t] { fired.emplace_back(t, i); }));
    timers.back()->schedule_at(t);
    expected.emplace_back(t, i);
  }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  sim.run();
  CHECK(fired == expected);
  CHECK(sim.events_processed() == 5000);
}

TEST_CASE("sleep(0) yields behind events already queued for the same instant") {
  Simulator sim;
  Trace trace;
  auto yielder = [](Simulator& s, Trace& t) -> Process {
    t.lines.push_back("y1");
    co_await s.sleep(0);
    t.lines.push_back("y2");
  };
  auto other = [](Trace& t) -> Process {
    t.lines.push_back("o");
    co_return;
  };
  sim.spawn(yielder(sim, trace));
  sim.spawn(other(trace));  // queued before y's sleep(0): runs between y1 and y2
  sim.run();
  CHECK(trace.lines == std::vector<std::string>{"y1", "o", "y2"});
  CHECK(sim.now() == 0);
  CHECK(sim.events_processed() == 3);
}

TEST_CASE("run_until runs events at exactly `until`, leaves later ones, and sets the clock") {
  Simulator sim;
  Trace trace;
  sim.spawn(sleeper(sim, trace, "at100", 100));
  sim.spawn(sleeper(sim, trace, "at101", 101));
  sim.run_until(100);
  CHECK(trace.lines == std::vector<std::string>{"at100@100"});
  CHECK(sim.now() == 100);
  sim.run_until(150);  // nothing due: the clock still moves to 150
  CHECK(sim.now() == 150);
  CHECK(trace.lines.size() == 2);
  sim.run_until(10 * kSecond);
  CHECK(sim.now() == 10 * kSecond);
}

TEST_CASE("stop() makes run() return after the current event, keeping the clock there") {
  Simulator sim;
  Trace trace;
  Timer stopper(sim, [&] {
    trace.lines.push_back("stop");
    sim.stop();
  });
  stopper.schedule_at(30);
  sim.spawn(sleeper(sim, trace, "a", 30));  // same instant, queued after the stopper
  sim.spawn(sleeper(sim, trace, "b", 50));
  sim.run_until(1000);
  CHECK(sim.stopped());
  CHECK(sim.now() == 30);  // not moved to 1000
  CHECK(trace.lines == std::vector<std::string>{"stop"});
  sim.run();  // resumes where it stopped
  CHECK_FALSE(sim.stopped());
  CHECK(trace.lines == std::vector<std::string>{"stop", "a@30", "b@50"});
}

TEST_CASE("sleep_until a past time resumes at now, behind queued events") {
  Simulator sim;
  Trace trace;
  auto late = [](Simulator& s, Trace& t) -> Process {
    co_await s.sleep(100);
    co_await s.sleep_until(40);  // in the past: acts as sleep(0)
    t.lines.push_back("late@" + std::to_string(s.now()));
  };
  sim.spawn(late(sim, trace));
  sim.spawn(sleeper(sim, trace, "x", 100));
  sim.run();
  CHECK(trace.lines == std::vector<std::string>{"x@100", "late@100"});
}
