// tests/postgres/test_buffers.cpp
//
// The clock sweep (StrategyGetBuffer) on hand-worked pools, and BgBufferSync
// on scripted allocation sequences: buffers scanned and cleaned per round,
// maxwritten_clean, hibernation and the wake-up on allocation.
#include <doctest/doctest.h>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {
// A pool of 16 buffers whose freelist is already drained (as after warm-up).
void drain_freelist(BufferPool& pool) {
  for (int i = 0; i < pool.size(); ++i) REQUIRE(pool.strategy_get_buffer() == i);
}
}  // namespace

TEST_CASE("freelist first: every buffer starts there, handed out in id order, each counted as an allocation") {
  sim::Simulator sim;
  BufferPool pool(sim, 16);
  drain_freelist(pool);
  CHECK(pool.clock_hand() == 0);  // the freelist does not move the hand
  const auto s = pool.strategy_sync_start();
  CHECK(s.num_allocs == 16);
  CHECK(pool.strategy_sync_start().num_allocs == 0);  // read-and-reset
}

TEST_CASE("clock sweep skips pinned buffers and decrements usage_count") {
  sim::Simulator sim;
  BufferPool pool(sim, 16);
  drain_freelist(pool);
  // Buffer 0: usage 2 and pinned; 1: usage 1; 2: usage 0; 3..15: usage 1.
  BufferPoolTesting::state(pool, 0).usage_count = 2;
  pool.pin(0, false);
  BufferPoolTesting::state(pool, 1).usage_count = 1;
  BufferPoolTesting::state(pool, 2).usage_count = 0;
  for (int i = 3; i < 16; ++i) BufferPoolTesting::state(pool, i).usage_count = 1;

  // First victim: 0 is pinned (skipped, untouched), 1 is decremented, 2 is taken.
  CHECK(pool.strategy_get_buffer() == 2);
  CHECK(pool.state(0).usage_count == 2);
  CHECK(pool.state(1).usage_count == 0);
  CHECK(pool.clock_hand() == 3);
  // Second: 3..15 decremented to 0, the hand wraps (one complete pass), 0 skipped, 1 taken.
  CHECK(pool.strategy_get_buffer() == 1);
  for (int i = 3; i < 16; ++i) CHECK(pool.state(i).usage_count == 0);
  CHECK(pool.complete_passes() == 1);
  CHECK(pool.state(0).usage_count == 2);
  // Third: buffer 2 (still usage 0, not pinned by anyone).
  CHECK(pool.strategy_get_buffer() == 2);
  const auto s = pool.strategy_sync_start();
  CHECK(s.hand == 3);
  CHECK(s.complete_passes == 1);
  CHECK(s.num_allocs == 19);
}

TEST_CASE("a pinned buffer with usage 5 survives five passes of others' decrements only while pinned") {
  sim::Simulator sim;
  BufferPool pool(sim, 16);
  drain_freelist(pool);
  for (int i = 0; i < 16; ++i) BufferPoolTesting::state(pool, i).usage_count = kMaxUsageCount;
  pool.pin(7);  // usage stays capped at 5
  CHECK(pool.state(7).usage_count == kMaxUsageCount);
  // Every unpinned buffer needs 5 decrements: the first victim is found on the 6th pass, at buffer 0.
  CHECK(pool.strategy_get_buffer() == 0);
  CHECK(pool.complete_passes() == 5);
  CHECK(pool.state(7).usage_count == kMaxUsageCount);
}

TEST_CASE("all buffers pinned: no unpinned buffers available") {
  sim::Simulator sim;
  BufferPool pool(sim, 16);
  drain_freelist(pool);
  for (int i = 0; i < 16; ++i) pool.pin(i);
  CHECK_THROWS_WITH(pool.strategy_get_buffer(), "no unpinned buffers available");
}

TEST_CASE("mapping table: lookups after deletions, and tags no relation's array reaches") {
  sim::Simulator sim;
  BufferPool pool(sim, 64);
  for (BufferId id = 0; id < 64; ++id) {
    BufferPoolTesting::desc(pool, id).set_tag(BufferTag{id % 3, id * 7});
    pool.insert(pool.desc(id).tag(), id);
  }
  for (BufferId id = 0; id < 64; id += 2) pool.erase(pool.desc(id).tag());
  for (BufferId id = 0; id < 64; ++id) CHECK(pool.lookup(BufferTag{id % 3, id * 7}) == (id % 2 ? id : -1));
  // Beyond the mapped relations and blocks, and the invalid tag: nothing.
  CHECK(pool.lookup(BufferTag{3, 0}) == -1);
  CHECK(pool.lookup(BufferTag{0, 64 * 7}) == -1);
  CHECK(pool.lookup(BufferTag{}) == -1);
  // A block far beyond a relation's end is mapped, and the blocks below stay as they were.
  pool.erase(pool.desc(1).tag());
  pool.insert(BufferTag{1, 1'000'000}, 1);
  CHECK(pool.lookup(BufferTag{1, 1'000'000}) == 1);
  CHECK(pool.lookup(BufferTag{1, 7 * 7}) == 7);
  CHECK_THROWS_AS(pool.insert(BufferTag{1, 1'000'000}, 5), std::logic_error);  // one block, one buffer
}

namespace {

sim::Process fill_and_dirty(Server& server, Backend& b, RelationId rel, int fill, int dirty) {
  for (int i = 0; i < fill; ++i) co_await b.read(rel, i);
  for (int i = 0; i < dirty; ++i) co_await b.modify(rel, i, 100);
  co_await b.commit();
  // Make every buffer a candidate: usage 0, as after the clock hand passed.
  BufferPool& pool = server.buffer_pool();
  for (BufferId id = 0; id < pool.size(); ++id) BufferPoolTesting::state(pool, id).usage_count = 0;
}

sim::Process one_round(BackgroundWriter& bgw, PgProc& proc, bool* can_hibernate) {
  *can_hibernate = co_await bgw.buffer_sync(proc);
}

}  // namespace

TEST_CASE("BgBufferSync, first round: scans a lap ahead of the hand and writes the dirty usage-0 buffers") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 128 * sim::kKiB;  // 16 buffers: min_scan = int(16 / 600) = 0
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 100);
  Backend& b = server.connect();  // no start(): the bgwriter's rounds are driven by hand
  rig.sim.spawn(fill_and_dirty(server, b, rel, 16, 8));
  rig.sim.run();
  os::OsTask& task = rig.fs.new_task("bgwriter");
  PgProc proc{&task, ProcKind::Bgwriter, nullptr};
  bool can_hibernate = true;
  rig.sim.spawn(one_round(server.bgwriter(), proc, &can_hibernate));
  rig.sim.run();
  const auto& r = server.bgwriter().last_round();
  // 16 allocations since the start: smoothed_alloc = 16 (fast attack), target = 16 * 2.0 = 32.
  CHECK(r.recent_alloc == 16);
  CHECK(r.upcoming_alloc_est == 32);
  CHECK(r.bufs_to_lap == 16);  // first round: a whole lap to go
  // It scans the whole lap (16 reusable < 32), writing blocks 0..7 (dirty) and counting 8..15 reusable.
  CHECK(r.scanned == 16);
  CHECK(r.written == 8);
  CHECK(server.stats().buffers_clean == 8);
  CHECK(server.stats().maxwritten_clean == 0);
  CHECK(server.stats().buffers_alloc == 16);
  // Density: its own scan found 16 reusable in 16 buffers: 10 + (1 - 10) / 16.
  CHECK(server.bgwriter().smoothed_density() == doctest::Approx(9.4375));
  CHECK_FALSE(can_hibernate);  // there were allocations, and a lap to go
  std::vector<std::int64_t> written;
  for (const Record& rec : rig.fs.of(Call::Write, os::Volume::Data)) {
    if (rec.pid == task.pid) written.push_back(rec.block);
  }
  CHECK(written == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("BgBufferSync stops at bgwriter_lru_maxpages and counts maxwritten_clean; the next round resumes") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 128 * sim::kKiB;
  cfg.bgwriter_lru_maxpages = 3;
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 100);
  Backend& b = server.connect();
  rig.sim.spawn(fill_and_dirty(server, b, rel, 16, 8));
  rig.sim.run();
  PgProc proc{&rig.fs.new_task("bgwriter"), ProcKind::Bgwriter, nullptr};
  bool can_hibernate = true;
  rig.sim.spawn(one_round(server.bgwriter(), proc, &can_hibernate));
  rig.sim.run();
  CHECK(server.bgwriter().last_round().scanned == 3);
  CHECK(server.bgwriter().last_round().written == 3);
  CHECK(server.stats().maxwritten_clean == 1);
  // Round 2, no allocations: 3 buffers already ahead of the hand, bufs_to_lap = 13;
  // smoothed_alloc decays to 15 (target 30); it writes 3, 4, 5 and stops again.
  rig.sim.spawn(one_round(server.bgwriter(), proc, &can_hibernate));
  rig.sim.run();
  CHECK(server.bgwriter().last_round().bufs_to_lap == 13);
  CHECK(server.bgwriter().smoothed_alloc() == doctest::Approx(15.0));
  CHECK(server.bgwriter().last_round().upcoming_alloc_est == 30);
  CHECK(server.bgwriter().last_round().written == 3);
  CHECK(server.stats().maxwritten_clean == 2);
  CHECK(server.stats().buffers_clean == 6);
}

namespace {
sim::Process read_at(sim::Simulator& sim, sim::Time t, Backend& b, RelationId rel) {
  co_await sim.sleep_until(t);
  co_await b.read(rel, 5);
}
}  // namespace

TEST_CASE("idle bgwriter laps the hand at min_scan per round, hibernates, and the next allocation wakes it") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 8 * sim::kMiB;  // 1024 buffers: min_scan = int(1024 / 600) = 1 per round
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 100);
  Backend& b = server.connect();
  server.start();
  // 1024 rounds of one buffer each (204.8 s) to lap the hand, two rounds that may hibernate, then asleep.
  rig.sim.run_until(250 * sim::kSecond);
  CHECK(server.bgwriter().hibernating());
  const std::int64_t rounds = server.bgwriter().rounds();
  MESSAGE("rounds before hibernation: " << rounds);
  CHECK(rounds == doctest::Approx(1026).epsilon(0.01));  // a lap of 1024 one-buffer rounds, then the idle ones
  rig.sim.run_until(255 * sim::kSecond);
  CHECK(server.bgwriter().rounds() == rounds);  // asleep for 50 * bgwriter_delay = 10 s
  rig.sim.spawn(read_at(rig.sim, 255 * sim::kSecond, b, rel));
  rig.sim.run_until(255 * sim::kSecond + sim::kMillisecond);
  CHECK(server.bgwriter().rounds() == rounds + 1);  // woken by the allocation, at once
  CHECK_FALSE(server.bgwriter().hibernating());
}

TEST_CASE("BufferSync's marking pass (bufmgr): every valid dirty buffer, in buffer order; a write clears the mark") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 128 * sim::kKiB;  // 16 buffers
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 100);
  Backend& b = server.connect();
  rig.sim.spawn(fill_and_dirty(server, b, rel, 12, 5));  // 12 valid buffers, blocks 0..4 dirty
  rig.sim.run();
  BufferManager& bufmgr = server.buffer_manager();
  std::vector<BufferManager::CkptSortItem> items{{rel, 99, 99}};  // stale content is replaced
  bufmgr.mark_checkpoint_buffers(items);
  REQUIRE(items.size() == 5);
  for (std::size_t i = 0; i < items.size(); ++i) {
    CAPTURE(i);
    CHECK(items[i].rel == rel);
    CHECK(items[i].block == static_cast<std::int64_t>(i));
    CHECK(bufmgr.checkpoint_needed(items[i].buf));
    if (i > 0) CHECK(items[i].buf > items[i - 1].buf);
  }
  for (BufferId id = 0; id < server.buffer_pool().size(); ++id) {
    if (!server.buffer_pool().desc(id).dirty) CHECK_FALSE(bufmgr.checkpoint_needed(id));
  }
  // Whoever writes a marked buffer (here the bgwriter's SyncOneBuffer) takes it off the checkpoint's list.
  os::OsTask& task = rig.fs.new_task("bgwriter");
  PgProc proc{&task, ProcKind::Bgwriter, nullptr};
  bool can_hibernate = true;
  rig.sim.spawn(one_round(server.bgwriter(), proc, &can_hibernate));
  rig.sim.run();
  for (const auto& item : items) CHECK_FALSE(bufmgr.checkpoint_needed(item.buf));
}

namespace {
sim::Process read_blocks(Backend& b, RelationId rel, std::vector<std::int64_t> blocks) {
  for (const std::int64_t block : blocks) co_await b.read(rel, block);
}
}  // namespace

TEST_CASE("a cached read done at once leaves the pool as Backend::read would: usage_count, blks_hit, no pin") {
  // Two servers load blocks 0..3 the same way; then one re-reads them through
  // read(), the other through read_if_cached(). Their buffers must agree.
  auto load = [](Rig& rig) -> std::pair<Server*, Backend*> {
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 100);
    Backend& b = server.connect();
    rig.sim.spawn(read_blocks(b, rel, {0, 1, 2, 3}));
    rig.sim.run();
    return {&server, &b};
  };
  Rig slow(config_for("15")), fast(config_for("15"));
  auto [slow_server, slow_backend] = load(slow);
  auto [fast_server, fast_backend] = load(fast);
  const RelationId rel = 0;
  slow.sim.spawn(read_blocks(*slow_backend, rel, {1, 1, 2, 1, 1, 1, 1}));
  slow.sim.run();
  for (const std::int64_t block : {1, 1, 2, 1, 1, 1, 1}) CHECK(fast_backend->read_if_cached(rel, block, false));
  CHECK_FALSE(fast_backend->read_if_cached(rel, 50, false));  // not in shared buffers: read() must run
  CHECK_FALSE(fast_backend->read_if_cached(rel, 1, true));    // hint bits to set: read() must run

  const BufferPool& a = slow_server->buffer_pool();
  const BufferPool& f = fast_server->buffer_pool();
  CHECK(f.state(f.lookup({rel, 1})).usage_count == kMaxUsageCount);  // 1 + 6 hits, capped
  CHECK(f.state(f.lookup({rel, 2})).usage_count == 2);
  for (const std::int64_t block : {0, 1, 2, 3}) {
    const BufferId id = f.lookup({rel, block});
    REQUIRE(id == a.lookup({rel, block}));
    CHECK(f.state(id).usage_count == a.state(id).usage_count);
    CHECK(f.desc(id).refcount == 0);
  }
  CHECK(fast_server->stats().blks_hit == slow_server->stats().blks_hit);
  CHECK(fast_server->stats().blks_hit == 7);
}
