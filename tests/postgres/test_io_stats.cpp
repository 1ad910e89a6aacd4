// tests/postgres/test_io_stats.cpp
//
// pg_stat_wal's I/O times under track_wal_io_timing (14+) and the counters
// behind pg_stat_io's relation rows (16+): per backend type writes,
// writebacks, extends, fsyncs and evictions.
#include <doctest/doctest.h>

#include <numeric>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {

sim::Process read_blocks(Backend& b, RelationId rel, std::int64_t n) {
  for (std::int64_t block = 0; block < n; ++block) co_await b.read(rel, block);
}

sim::Process checkpoint_at(sim::Simulator& sim, Server& server, sim::Time t) {
  co_await sim.sleep_until(t);
  server.request_checkpoint(true);
}

}  // namespace

TEST_CASE("wal_write_time and wal_sync_time: XLogWrite's write and sync in ms, only with track_wal_io_timing") {
  for (const bool timing : {false, true}) {
    CAPTURE(timing);
    PostgresConfig cfg = config_for("15");
    cfg.track_wal_io_timing = timing;
    Rig rig(cfg);
    rig.fs.write_time = 2 * sim::kMillisecond;
    rig.fs.fdatasync_time = 5 * sim::kMillisecond;
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 50);
    Backend& b = server.connect();
    server.start();
    rig.sim.spawn(modify_blocks(b, rel, {1}, 100, true));
    rig.sim.run_until(100 * sim::kMillisecond);  // before the WAL writer's first round
    const Stats& s = server.stats();
    // One commit: one write of the WAL page and one fdatasync.
    REQUIRE(s.wal_write == 1);
    REQUIRE(s.wal_sync == 1);
    CHECK(s.wal_write_time == (timing ? 2.0 : 0.0));
    CHECK(s.wal_sync_time == (timing ? 5.0 : 0.0));
  }
}

TEST_CASE("pg_stat_io counters: the checkpointer's writes, writebacks and fsyncs of one checkpoint") {
  PostgresConfig cfg = config_for("16");
  cfg.shared_buffers = 4 * sim::kMiB;
  cfg.checkpoint_flush_after = 256 * sim::kKiB;  // 32 pages
  cfg.bgwriter_lru_maxpages = 0;                 // only the checkpointer writes
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 300);  // one segment file
  Backend& b = server.connect();
  server.start();
  std::vector<std::int64_t> blocks(200);
  std::iota(blocks.begin(), blocks.end(), 0);
  rig.sim.spawn(modify_blocks(b, rel, blocks, 100, true));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond));
  rig.sim.run_until(5 * sim::kSecond);
  const Stats& s = server.stats();
  CHECK(s.buffers_checkpoint == 200);
  CHECK(s.checkpointer_writebacks == 200);  // six runs of 32 and 8, counted in blocks
  CHECK(s.checkpointer_fsyncs == 1);        // the one segment file, in the sync phase
  REQUIRE(server.checkpoints_since_reset().size() == 1);
  CHECK(server.checkpoints_since_reset()[0].sync_files == s.checkpointer_fsyncs);
  CHECK(s.buffers_clean == 0);
  CHECK(s.bgwriter_writebacks == 0);
  CHECK(s.backend_evictions == 0);  // 200 pages in 512 buffers
}

TEST_CASE("pg_stat_io counters: a backend evicts once per block read beyond the free buffers, and counts extends") {
  PostgresConfig cfg = config_for("16");  // 128 buffers
  cfg.bgwriter_lru_maxpages = 0;
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 300);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(read_blocks(b, rel, 200));
  rig.sim.run_until(sim::kSecond);
  // The first 128 reads take free buffers; each of the other 72 takes over a valid one.
  CHECK(server.stats().backend_evictions == 200 - 128);
  CHECK(server.stats().buffers_backend == 0);  // clean victims: nothing written
  CHECK(server.stats().backend_extends == 0);
}

namespace {
sim::Process insert_rows(Backend& b, RelationId rel, int rows) {
  for (int i = 0; i < rows; ++i) co_await b.insert(rel, 1, 100);  // one tuple per page
  co_await b.commit();
}
}  // namespace

TEST_CASE("pg_stat_io counters: a relation extension is an extend, counted in buffers_backend but not in writes") {
  PostgresConfig cfg = config_for("16");
  cfg.bgwriter_lru_maxpages = 0;
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("h", 1);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(insert_rows(b, rel, 5));
  rig.sim.run_until(sim::kSecond);
  const std::int64_t extends = server.relations().rel(rel).nblocks - 1;
  CHECK(extends >= 4);
  CHECK(server.stats().backend_extends == extends);
  CHECK(server.stats().buffers_backend == extends);  // pg_stat_io writes: buffers_backend - extends = 0
}
