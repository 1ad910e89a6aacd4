// The load model: pgbench's threads, throttling, latency limit and scripts.
#include <doctest/doctest.h>

#include "tests/pgbench/harness.h"

using namespace ckptsim;
using namespace ckptsim::pgbench;
using testing::Machine;
using testing::select_only;

TEST_CASE("-t runs exactly that many transactions per client") {
  Machine m;
  PgbenchConfig c = select_only(3, 2);
  c.transactions = 500;
  const auto bench = m.run(c);
  CHECK(bench->stats().total().transactions == 1500);
  CHECK(bench->finished());
}

TEST_CASE("a pgbench thread serves its clients one at a time, so -j bounds client-side throughput") {
  // 1 ms of client-side work per round trip dwarfs everything else (1 round trip per
  // select-only transaction): one thread completes at most ~1000 transactions a second
  // whatever the number of clients; four threads four times that.
  PgbenchConfig c = select_only(4, 1);
  c.cpu_client = 1 * sim::kMillisecond;
  Machine one;
  const double tps1 = static_cast<double>(one.run(c)->stats().total().transactions) / 10.0;
  c.threads = 4;
  Machine four;
  const double tps4 = static_cast<double>(four.run(c)->stats().total().transactions) / 10.0;
  CHECK(tps1 <= 1000.0);
  CHECK(tps1 >= 900.0);  // server time per transaction (~0.02 ms) overlaps other clients' client time
  CHECK(tps4 / tps1 == doctest::Approx(4.0).epsilon(0.1));
}

TEST_CASE("closing a connection keeps the thread busy: the other clients of the thread wait (E4)") {
  // Two clients, 50 select-only transactions each, then a 50 ms disconnect. On one
  // thread the second disconnect waits for the first: the run ends ~50 ms later than
  // on two threads, where they overlap.
  PgbenchConfig c = select_only(2, 1);
  c.transactions = 50;
  c.disconnect_time = 50 * sim::kMillisecond;
  Machine shared;
  const sim::Time one_thread = shared.run(c)->finished_at();
  c.threads = 2;
  Machine apart;
  const sim::Time two_threads = apart.run(c)->finished_at();
  // The transactions themselves take a few ms either way (client work of 10 µs per
  // round trip serialises on one thread): the difference is the second disconnect.
  CHECK(sim::to_millis(one_thread - two_threads) == doctest::Approx(50).epsilon(0.1));
}

TEST_CASE("-R follows a Poisson schedule at the given rate; lag is measured from the schedule") {
  Machine m;
  PgbenchConfig c = select_only(4, 2);
  c.rate = 200;
  c.duration = 60 * sim::kSecond;
  const auto bench = m.run(c);
  const TransactionSums& t = bench->stats().total();
  // 12000 expected; a Poisson count's stddev is ~110, so 3% is over 3 sigma.
  CHECK(static_cast<double>(t.transactions) == doctest::Approx(12000).epsilon(0.03));
  CHECK(t.lag_avg_ms() < 1.0);  // the server keeps up: transactions start on time
  CHECK(t.latency_avg_ms() < 1.0);
  CHECK(t.skipped == 0);
}

TEST_CASE("-R far below one transaction per run (1e-11 tps) starts none, as pgbench 15 does, and no lag wraps") {
  Machine m;
  PgbenchConfig c = select_only(4, 2);
  c.rate = 1e-11;  // a mean gap of 6e12 s: past the simulated clock's range in nanoseconds
  c.duration = 5 * sim::kSecond;
  const auto bench = m.run(c);
  const TransactionSums& t = bench->stats().total();
  CHECK(t.transactions == 0);
  CHECK(t.skipped == 0);
  CHECK(t.lag_avg_ms() >= 0.0);
}

TEST_CASE("-R above capacity with -L: late starters are skipped, the rest are late or not") {
  // Capacity: one thread, 2 ms of client work per transaction = 500 tps; asked 1000.
  Machine m;
  PgbenchConfig c = select_only(4, 1);
  c.cpu_client = 2 * sim::kMillisecond;
  c.rate = 1000;
  c.latency_limit = 20 * sim::kMillisecond;
  c.duration = 20 * sim::kSecond;
  const auto bench = m.run(c);
  const TransactionSums& t = bench->stats().total();
  const double scheduled = static_cast<double>(t.transactions + t.skipped);
  CHECK(scheduled == doctest::Approx(20000).epsilon(0.05));
  // About half the schedule cannot be served; those already 20 ms late are skipped.
  CHECK(static_cast<double>(t.transactions) / 20.0 == doctest::Approx(500).epsilon(0.05));
  CHECK(t.skipped / scheduled == doctest::Approx(0.5).epsilon(0.1));
  CHECK(t.late > 0);
}

TEST_CASE("the first update of an accounts page is never HOT: its new version extends the table") {
  // With every later update HOT, the table grows by one page per 61 first updates.
  Machine m;
  PgbenchConfig c = select_only(2, 2);
  c.builtin = Builtin::SimpleUpdate;
  c.transactions = 300;
  c.hot_update_ratio = 1.0;
  const std::int64_t before = m.server.relations().rel(m.tables.accounts).nblocks;
  m.run(c);
  const auto first_updates = std::count(m.tables.accounts_updated.begin(), m.tables.accounts_updated.end(), true);
  CHECK(first_updates > 400);  // 600 updates over 1640 pages: most are first updates
  CHECK(m.server.relations().rel(m.tables.accounts).nblocks - before == (first_updates + 60) / 61);
}

TEST_CASE("pgbench_history grows by one page per 155 inserts") {
  Machine m;
  PgbenchConfig c = select_only(1, 1);
  c.builtin = Builtin::SimpleUpdate;
  c.transactions = 155;  // exactly one history page
  m.run(c);
  CHECK(m.server.relations().rel(m.tables.history).nblocks == 1);
  c.transactions = 1;
  m.run(c, "again");
  CHECK(m.server.relations().rel(m.tables.history).nblocks == 2);
}

TEST_CASE("-R -T: clients whose next start falls beyond the end disconnect before it, delaying their thread's others") {
  // 64 clients at 2000 tps, 2 ms per disconnect. On one thread the schedule's
  // cursor runs ~32 ms ahead of the clock (one 0.5 ms gap per waiting client), so
  // in the last tens of ms each client that finishes a transaction draws a start
  // beyond the end and closes its connection at once, holding the thread's loop:
  // the others' transactions start late (lag) and finish late (latency). One
  // thread per client has nobody to delay.
  const auto last_second = [](std::int64_t threads) {
    Machine m;
    PgbenchConfig c = select_only(64, threads);
    c.rate = 2000;
    c.disconnect_time = 2 * sim::kMillisecond;
    pgbench::Pgbench bench(m.sim, m.cores, m.server, m.tables, c, 1, "run");
    const sim::Time end = m.sim.now() + c.duration;
    bench.start(end);
    m.sim.run_until(end - sim::kSecond);
    bench.stats().take_interval();
    m.sim.run_until(end);
    return bench.stats().take_interval();
  };
  const TransactionSums shared = last_second(1);
  const TransactionSums apart = last_second(64);
  CAPTURE(shared.lag_avg_ms());
  CAPTURE(apart.lag_avg_ms());
  CAPTURE(shared.latency_avg_ms());
  CAPTURE(apart.latency_avg_ms());
  CHECK(apart.lag_avg_ms() < 0.1);  // a client waits for nobody but itself
  CHECK(shared.lag_avg_ms() > 10 * apart.lag_avg_ms());
  // Counted are the transactions done by the end; those pushed past it are not.
  CHECK(shared.latency_avg_ms() > 2 * apart.latency_avg_ms());
  // Lag is part of the latency (both count from the schedule).
  CHECK(shared.latency_avg_ms() > shared.lag_avg_ms());
}
