// tests/sim/test_sampler.cpp
//
// The statistics sampler: rows closed on the period grid with the sources'
// values, the header order, several tables, stop() and close_partial().
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/sampler.h"
#include "sim/simulator.h"

using namespace ckptsim::sim;

namespace {

struct Row {
  std::string table;
  std::vector<Cell> cells;
};

// A counter that a model would bump: the source reports its change per interval.
struct Counter {
  std::int64_t total = 0;
  std::int64_t reported = 0;
};

Process committer(Simulator& sim, Counter& commits, Duration every) {
  for (;;) {
    co_await sim.sleep(every);
    ++commits.total;
  }
}

}  // namespace

TEST_CASE("the sampler closes intervals on the period grid with each source's values") {
  Simulator sim;
  Sampler sampler(sim, kSecond);
  Counter commits;
  std::vector<Interval> seen;
  std::vector<Row> rows;

  Table& progress = sampler.table("progress");
  progress.add_source({"tps"}, [&](const Interval& iv, std::span<Cell> out) {
    const std::int64_t delta = commits.total - commits.reported;
    commits.reported = commits.total;
    out[0] = static_cast<double>(delta) / to_seconds(iv.end - iv.start);
    seen.push_back(iv);
  });
  progress.add_source({"interval", "commits"}, [&](const Interval& iv, std::span<Cell> out) {
    REQUIRE(out.size() == 2);  // exactly its own columns
    out[0] = iv.index;
    out[1] = commits.total;
  });
  progress.add_sink([&](const Table& t, const std::vector<Cell>& row) { rows.push_back({t.name(), row}); });

  CHECK(progress.columns() == std::vector<std::string>{"time_s", "tps", "interval", "commits"});

  // A commit every 250 ms. The commits at whole seconds are queued (at
  // t - 250 ms) after the sampler's close (queued one period ahead), so
  // FIFO puts them in the next interval: 3 commits in the first second,
  // 4 in each later one.
  sim.spawn(committer(sim, commits, 250 * kMillisecond));
  sampler.start(0);
  sim.run_until(3 * kSecond + 100 * kMillisecond);

  REQUIRE(rows.size() == 3);
  CHECK(sampler.intervals_closed() == 3);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& cells = rows[i].cells;
    CHECK(rows[i].table == "progress");
    CHECK(std::get<double>(cells[0]) == static_cast<double>(i + 1));
    CHECK(std::get<double>(cells[1]) == (i == 0 ? 3.0 : 4.0));
    CHECK(std::get<std::int64_t>(cells[2]) == static_cast<std::int64_t>(i));
    CHECK(std::get<std::int64_t>(cells[3]) == 4 * static_cast<std::int64_t>(i + 1) - 1);
    CHECK(seen[i].start == static_cast<Time>(i) * kSecond);
    CHECK(seen[i].end == static_cast<Time>(i + 1) * kSecond);
  }
}

TEST_CASE("tables keep their creation order and every table gets a row per close") {
  Simulator sim;
  Sampler sampler(sim, 500 * kMillisecond);
  std::vector<std::string> order;
  Table& system = sampler.table("system");
  Table& progress = sampler.table("progress");
  CHECK(&sampler.table("system") == &system);  // found, not created again
  REQUIRE(sampler.tables().size() == 2);
  CHECK(sampler.tables()[0]->name() == "system");
  CHECK(sampler.tables()[1]->name() == "progress");
  system.add_sink([&](const Table& t, const std::vector<Cell>&) { order.push_back(t.name()); });
  progress.add_sink([&](const Table& t, const std::vector<Cell>&) { order.push_back(t.name()); });
  CHECK(progress.columns() == std::vector<std::string>{"time_s"});

  sampler.start(2 * kSecond);  // origin need not be 0: first close at 2.5 s
  sim.run_until(3 * kSecond);
  CHECK(order == std::vector<std::string>{"system", "progress", "system", "progress"});
}

TEST_CASE("stop() cancels further closes; close_partial() closes a non-empty tail only") {
  Simulator sim;
  Sampler sampler(sim, kSecond);
  std::vector<Interval> closed;
  std::vector<double> times;
  Table& t = sampler.table("progress");
  t.add_source({"len_ms"}, [&](const Interval& iv, std::span<Cell> out) {
    closed.push_back(iv);
    out[0] = to_millis(iv.end - iv.start);
  });
  t.add_sink([&](const Table&, const std::vector<Cell>& row) { times.push_back(std::get<double>(row[0])); });

  sampler.start(0);
  sim.run_until(2 * kSecond + 400 * kMillisecond);
  sampler.close_partial();  // [2 s, 2.4 s]
  CHECK(times == std::vector<double>{1.0, 2.0, 2.4});
  REQUIRE(closed.size() == 3);
  CHECK(closed[2].start == 2 * kSecond);
  CHECK(closed[2].end == 2 * kSecond + 400 * kMillisecond);
  CHECK(closed[2].index == 2);

  sampler.close_partial();  // empty: nothing
  CHECK(sampler.intervals_closed() == 3);

  // The grid is kept: the next close is at 3 s, covering [2.4 s, 3 s].
  sim.run_until(3 * kSecond);
  CHECK(times.back() == 3.0);
  CHECK(closed.back().start == 2 * kSecond + 400 * kMillisecond);

  sampler.stop();
  sim.run_until(10 * kSecond);
  CHECK(sampler.intervals_closed() == 4);
  CHECK(sim.queued_events() == 0);  // the stopped timer left nothing live behind
}

TEST_CASE("time_s counts from the origin given to start(), as pgbench -P counts from its start") {
  Simulator sim;
  Sampler sampler(sim, kSecond);
  std::vector<double> times;
  Table& t = sampler.table("progress");
  t.add_sink([&](const Table&, const std::vector<Cell>& row) { times.push_back(std::get<double>(row[0])); });
  sim.run_until(60 * kSecond);  // a warmup before the measured run
  sampler.start(sim.now());
  sim.run_until(62 * kSecond);
  CHECK(times == std::vector<double>{1.0, 2.0});
}
