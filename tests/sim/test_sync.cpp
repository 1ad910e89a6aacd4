// tests/sim/test_sync.cpp
//
// Resource (FIFO grants, use(), busy-time accounting), Condition
// (notify order, no inline resumption) and Event (set before / after wait).
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/sync.h"

using namespace ckptsim::sim;

namespace {

struct Log {
  std::vector<std::string> lines;
  void add(const std::string& what, Time t) { lines.push_back(what + "@" + std::to_string(t)); }
};

Process user(Simulator& sim, Resource& cpu, Log& log, std::string name, Duration arrive, Duration hold) {
  co_await sim.sleep(arrive);
  co_await cpu.use(hold);
  log.add(name, sim.now());
}

Process holder(Simulator& sim, Resource& lock, Log& log, std::string name, Duration arrive, Duration hold) {
  co_await sim.sleep(arrive);
  co_await lock.acquire();
  log.add(name + ".got", sim.now());
  co_await sim.sleep(hold);
  lock.release();
}

}  // namespace

TEST_CASE("Resource capacity 1: use() grants in arrival order, back to back") {
  Simulator sim;
  Resource cpu(sim, 1);
  Log log;
  sim.spawn(user(sim, cpu, log, "a", 0, 10));
  sim.spawn(user(sim, cpu, log, "b", 0, 10));
  sim.spawn(user(sim, cpu, log, "c", 5, 10));  // arrives while b waits: behind it
  sim.run();
  CHECK(log.lines == std::vector<std::string>{"a@10", "b@20", "c@30"});
  CHECK(cpu.busy_time() == 30);
  CHECK(cpu.in_use() == 0);
}

TEST_CASE("Resource capacity 2: exact completion times and busy time") {
  // a(10) and b(20) start at once; c(10) gets a's unit at 10; at 20 b and c
  // release in that order (b's wake-up was queued first), handing units to
  // d(10) and e(5).
  Simulator sim;
  Resource cpu(sim, 2);
  Log log;
  sim.spawn(user(sim, cpu, log, "a", 0, 10));
  sim.spawn(user(sim, cpu, log, "b", 0, 20));
  sim.spawn(user(sim, cpu, log, "c", 0, 10));
  sim.spawn(user(sim, cpu, log, "d", 0, 10));
  sim.spawn(user(sim, cpu, log, "e", 0, 5));
  sim.run_until(15);
  CHECK(cpu.in_use() == 2);
  CHECK(cpu.queue_length() == 2);         // d, e
  CHECK(cpu.busy_time() == 10 + 15 + 5);  // a: 0-10, b: 0-15 so far, c: 10-15 so far
  sim.run();
  CHECK(log.lines == std::vector<std::string>{"a@10", "b@20", "c@20", "e@25", "d@30"});
  CHECK(cpu.busy_time() == 10 + 20 + 10 + 10 + 5);  // sum of holds: never idle while queued
  CHECK(cpu.in_use() == 0);
  CHECK(cpu.queue_length() == 0);
}

TEST_CASE("Resource is strictly FIFO: a newcomer at the release instant queues behind waiters") {
  Simulator sim;
  Resource lock(sim, 1);
  Log log;
  sim.spawn(holder(sim, lock, log, "p1", 0, 10));
  sim.spawn(holder(sim, lock, log, "p2", 1, 5));
  // p3 arrives at t=10 just after p1's release (its last sleep was queued
  // after p1's): the unit already belongs to p2, so p3 must queue.
  auto p3 = [&]() -> Process {
    co_await sim.sleep(5);
    co_await sim.sleep(5);
    log.add("p3.arrives", sim.now());
    co_await lock.acquire();
    log.add("p3.got", sim.now());
    lock.release();
  };
  sim.spawn(p3());
  sim.run();
  CHECK(log.lines == std::vector<std::string>{"p1.got@0", "p3.arrives@10", "p2.got@10", "p3.got@15"});
  CHECK(lock.busy_time() == 15);
}

TEST_CASE("Resource acquire() on a free unit does not suspend") {
  Simulator sim;
  Resource lock(sim, 1);
  Log log;
  sim.spawn(holder(sim, lock, log, "p", 0, 0));
  sim.run();
  // start, sleep(arrive=0), sleep(hold=0): the acquire itself added no event.
  CHECK(sim.events_processed() == 3);
  CHECK(lock.busy_time() == 0);
}

TEST_CASE("Resource use() costs one event when free, two when it waits") {
  Simulator sim;
  Resource cpu(sim, 1);
  Log log;
  auto direct = [&]() -> Process {
    co_await cpu.use(7);
    co_await cpu.use(7);
  };
  sim.spawn(direct());
  sim.run();
  CHECK(sim.events_processed() == 3);  // start + one per use
  CHECK(sim.now() == 14);
  CHECK(cpu.busy_time() == 14);
}

TEST_CASE("Resource rejects a release without a holder") {
  Simulator sim;
  Resource cpu(sim, 2);
  CHECK_THROWS_AS(cpu.release(), std::logic_error);
  CHECK_THROWS_AS(Resource(sim, 0), std::invalid_argument);
}

TEST_CASE("Condition: notify_one wakes the longest waiter, notify_all the rest in order") {
  Simulator sim;
  Condition cond(sim);
  Log log;
  auto waiter = [&](std::string name) -> Process {
    co_await cond.wait();
    log.add(name, sim.now());
  };
  auto notifier = [&]() -> Process {
    co_await sim.sleep(10);
    cond.notify_one();
    log.add("notified_one", sim.now());  // before the waiter runs: no inline resumption
    co_await sim.sleep(10);
    cond.notify_all();
    log.add("notified_all", sim.now());
  };
  for (const char* name : {"w1", "w2", "w3"}) sim.spawn(waiter(name));
  sim.spawn(notifier());
  sim.run();
  CHECK(log.lines == std::vector<std::string>{"notified_one@10", "w1@10", "notified_all@20", "w2@20", "w3@20"});
  CHECK(cond.waiters() == 0);
}

TEST_CASE("Condition: a notify with nobody waiting is lost") {
  Simulator sim;
  Condition cond(sim);
  cond.notify_one();
  cond.notify_all();
  bool woke = false;
  auto waiter = [&]() -> Process {
    co_await cond.wait();
    woke = true;
  };
  sim.spawn(waiter());
  sim.run();
  CHECK_FALSE(woke);
  CHECK(cond.waiters() == 1);
}

TEST_CASE("Event: waiting on a set event returns at once; set() wakes waiters in FIFO order") {
  Simulator sim;
  Event done(sim);
  Log log;
  auto waiter = [&](std::string name) -> Process {
    co_await done;
    log.add(name, sim.now());
  };
  auto completer = [&]() -> Process {
    co_await sim.sleep(30);
    done.set();
    log.add("set", sim.now());
  };
  sim.spawn(waiter("a"));
  sim.spawn(waiter("b"));
  sim.spawn(completer());
  sim.run();
  CHECK(log.lines == std::vector<std::string>{"set@30", "a@30", "b@30"});
  CHECK(done.is_set());

  const std::uint64_t before = sim.events_processed();
  sim.spawn(waiter("late"));  // already set: no suspension
  sim.run();
  CHECK(log.lines.back() == "late@30");
  CHECK(sim.events_processed() == before + 1);  // only its start

  done.reset();
  CHECK_FALSE(done.is_set());
  sim.spawn(waiter("after_reset"));
  sim.run();
  CHECK(done.waiters() == 1);  // waits for the next set()
  done.set();
  sim.run();
  CHECK(log.lines.back() == "after_reset@30");
}
