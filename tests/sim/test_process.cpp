// tests/sim/test_process.cpp
//
// Processes and tasks: values and exceptions through Task<T>, nesting,
// awaiting inside a task, exceptions out of run(), and ownership of frames
// (finished ones freed at once, suspended ones by ~Simulator).
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/condition.h"
#include "sim/simulator.h"

using namespace ckptsim::sim;

namespace {

// Counts destructions, to see which frames were destroyed.
struct FrameGuard {
  int& destroyed;
  ~FrameGuard() { ++destroyed; }
};

Task<int> read_page(Simulator& sim, int page) {
  co_await sim.sleep(10);  // suspends the whole process
  co_return page * 2;
}

Task<int> read_two(Simulator& sim, int a, int b) {
  const int x = co_await read_page(sim, a);
  const int y = co_await read_page(sim, b);
  co_return x + y;
}

Task<> fail_after(Simulator& sim, Duration d) {
  co_await sim.sleep(d);
  throw std::runtime_error("I/O error");
}

Task<int> immediate(int v) { co_return v; }

}  // namespace

TEST_CASE("Task<T> returns its value to the awaiter after the time it waited") {
  Simulator sim;
  int result = 0;
  Time finished = -1;
  auto body = [&](Simulator& s) -> Process {
    result = co_await read_page(s, 21);
    finished = s.now();
  };
  sim.spawn(body(sim));
  sim.run();
  CHECK(result == 42);
  CHECK(finished == 10);
}

TEST_CASE("nested tasks compose: sleeps inside inner tasks add up") {
  Simulator sim;
  int result = 0;
  auto body = [&](Simulator& s) -> Process { result = co_await read_two(s, 1, 2); };
  sim.spawn(body(sim));
  sim.run();
  CHECK(result == 6);
  CHECK(sim.now() == 20);
  CHECK(sim.events_processed() == 3);  // start + two sleeps: completing a task costs no event
}

TEST_CASE("Task<T&> returns a reference to the object itself") {
  Simulator sim;
  std::vector<int> buffers{7, 8, 9};
  auto lookup = [](std::vector<int>& b, int i) -> Task<int&> { co_return b[static_cast<std::size_t>(i)]; };
  auto body = [&]() -> Process {
    int& buf = co_await lookup(buffers, 1);
    buf = 80;
  };
  sim.spawn(body());
  sim.run();
  CHECK(buffers[1] == 80);
}

TEST_CASE("an exception in a task reaches its awaiter, which may catch it") {
  Simulator sim;
  std::string caught;
  auto body = [&](Simulator& s) -> Process {
    try {
      co_await fail_after(s, 5);
    } catch (const std::runtime_error& e) {
      caught = e.what();
    }
  };
  sim.spawn(body(sim));
  sim.run();
  CHECK(caught == "I/O error");
  CHECK(sim.now() == 5);
}

TEST_CASE("a task that throws before waiting delivers its exception at once") {
  Simulator sim;
  std::string caught;
  auto failing = []() -> Task<int> {
    throw std::invalid_argument("bad block");
    co_return 0;
  };
  auto body = [&]() -> Process {
    try {
      (void)co_await failing();
    } catch (const std::invalid_argument& e) {
      caught = e.what();
    }
  };
  sim.spawn(body());
  sim.run();
  CHECK(caught == "bad block");
  CHECK(sim.events_processed() == 1);
}

TEST_CASE("an exception escaping a process propagates out of run(), after its event") {
  Simulator sim;
  int after = 0;
  auto body = [](Simulator& s) -> Process { co_await fail_after(s, 7); };
  auto other = [&](Simulator& s) -> Process {
    co_await s.sleep(100);
    ++after;
  };
  sim.spawn(body(sim));
  sim.spawn(other(sim));
  CHECK_THROWS_WITH_AS(sim.run(), "I/O error", std::runtime_error);
  CHECK(sim.now() == 7);
  CHECK(sim.live_processes() == 1);  // the failed frame is gone, the other still waits
  sim.run();                         // the simulation can go on
  CHECK(after == 1);
}

TEST_CASE("finished frames are destroyed at once; suspended ones with the Simulator") {
  int destroyed = 0;
  auto finite = [&](Simulator& s) -> Process {
    FrameGuard guard{destroyed};
    co_await s.sleep(5);
  };
  auto forever = [&](Simulator& s) -> Process {
    FrameGuard guard{destroyed};
    for (;;) co_await s.sleep(1000);
  };
  auto waiting = [&](Condition& c) -> Process {
    FrameGuard guard{destroyed};
    co_await c.wait();
  };
  auto in_task = [&](Simulator& s) -> Process {
    FrameGuard guard{destroyed};
    co_await read_page(s, 1'000'000);  // parked inside a task frame
  };
  {
    Simulator sim;
    Condition never(sim);  // declared after sim: destroyed first, with a waiter linked
    sim.spawn(finite(sim));
    sim.spawn(forever(sim));
    sim.spawn(waiting(never));
    sim.spawn(in_task(sim));
    sim.run_until(6);
    CHECK(destroyed == 1);  // only `finite` returned
    CHECK(sim.live_processes() == 3);
    CHECK(never.waiters() == 1);
  }
  CHECK(destroyed == 4);  // LeakSanitizer checks that the task frame went too
}

TEST_CASE("a waiter's frame destroyed before its Condition leaves the wait list") {
  int destroyed = 0;
  auto waiting = [&](Condition& c) -> Process {
    FrameGuard guard{destroyed};
    co_await c.wait();
  };
  auto sim = std::make_unique<Simulator>();
  Condition cond(*sim);  // outlives the simulator here
  sim->spawn(waiting(cond));
  sim->spawn(waiting(cond));
  sim->run();
  CHECK(cond.waiters() == 2);
  sim.reset();
  CHECK(destroyed == 2);
  CHECK(cond.waiters() == 0);  // auto-unlinked: no dangling nodes
}

TEST_CASE("a process that is never spawned frees its frame") {
  int destroyed = 0;
  Simulator sim;
  auto body = [&]() -> Process {
    FrameGuard guard{destroyed};
    co_return;
  };
  { Process p = body(); }
  CHECK(destroyed == 0);  // lazily started: the guard was never constructed
  CHECK(sim.live_processes() == 0);
}

TEST_CASE("tasks that complete without waiting run by symmetric transfer, not recursion") {
  // A million synchronous task completions in one event: with a call per
  // resumption this would overflow the stack.
  Simulator sim;
  long long sum = 0;
  auto body = [&]() -> Process {
    for (int i = 0; i < 1'000'000; ++i) sum += co_await immediate(1);
  };
  sim.spawn(body());
  sim.run();
  CHECK(sum == 1'000'000);
  CHECK(sim.events_processed() == 1);
}

TEST_CASE("a loop over tasks that wait does not grow the stack either") {
  // Each task sleeps, so it finishes from the event loop and resumes its
  // awaiter by transfer; 200000 rounds would overflow an ASan stack if each
  // round left a frame behind.
  Simulator sim;
  long long sum = 0;
  auto body = [&](Simulator& s) -> Process {
    for (int i = 0; i < 200'000; ++i) sum += co_await read_page(s, 1);
  };
  sim.spawn(body(sim));
  sim.run();
  CHECK(sum == 400'000);
  CHECK(sim.now() == 200'000 * 10);
  CHECK(sim.events_processed() == 200'001);
}
