// tests/postgres/test_wal.cpp
//
// WAL: full-page images once per page per checkpoint cycle, group commit,
// asynchronous commit; and the fsync request queue when it fills
// (compaction from 9.1, backend fsyncs in 9.0).
#include <doctest/doctest.h>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {
sim::Process checkpoint_now(Server& server) {
  server.request_checkpoint(true);
  co_return;
}
sim::Process commit_at(sim::Simulator& sim, sim::Time t, Backend& b, RelationId rel, std::int64_t block,
                       std::vector<sim::Time>* done) {
  co_await sim.sleep_until(t);
  co_await b.modify(rel, block, 100);
  co_await b.commit();
  done->push_back(sim.now());
}
}  // namespace

TEST_CASE("full-page writes: exactly one image per page per checkpoint cycle") {
  PostgresConfig cfg = config_for("15");
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 50);
  server.start();
  Backend& b = server.connect();
  // Page 0 changed five times, pages 1..10 twice each: 11 images, 25 records.
  std::vector<std::int64_t> blocks{0, 0, 0, 0, 0};
  for (int round = 0; round < 2; ++round) {
    for (std::int64_t p = 1; p <= 10; ++p) blocks.push_back(p);
  }
  rig.sim.spawn(modify_blocks(b, rel, blocks, 100, true));
  rig.sim.run_until(sim::kSecond);
  CHECK(server.stats().wal_fpi == 11);
  CHECK(server.stats().wal_records == 26);  // + the commit record
  // A checkpoint moves the redo point: the next change of each page carries a new image.
  rig.sim.spawn(checkpoint_now(server));
  rig.sim.run_until(2 * sim::kSecond);
  REQUIRE(server.stats().checkpoints_done == 1);
  rig.sim.spawn(modify_blocks(b, rel, blocks, 100, true));
  rig.sim.run_until(3 * sim::kSecond);
  CHECK(server.stats().wal_fpi == 22);
  // A new page added by extension is initialised by its record: no image.
  rig.sim.spawn([](Backend& be, RelationId r) -> sim::Process { co_await be.insert(r, 100, 80); }(b, rel));
  rig.sim.run_until(4 * sim::kSecond);
  CHECK(server.stats().wal_fpi == 22);
  CHECK(server.relations().rel(rel).nblocks == 51);
}

TEST_CASE("full_page_writes off: no images; wal_compression: a third of the image") {
  for (const bool fpw : {false, true}) {
    PostgresConfig cfg = config_for("15");
    cfg.full_page_writes = fpw;
    cfg.wal_compression = WalCompression::Pglz;
    Rig rig(cfg);
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 50);
    Backend& b = server.connect();
    rig.sim.spawn(modify_blocks(b, rel, {1}, 100, false));
    rig.sim.run();
    CHECK(server.stats().wal_fpi == (fpw ? 1 : 0));
    CHECK(server.stats().wal_bytes == (fpw ? 100 + kFullPageImageBytes / 3 : 100));
  }
}

TEST_CASE("group commit: committers that arrive during a flush share the next one") {
  PostgresConfig cfg = config_for("15");
  Rig rig(cfg);
  rig.fs.fdatasync_time = 5 * sim::kMillisecond;
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 50);
  std::vector<Backend*> backends;
  for (int i = 0; i < 8; ++i) backends.push_back(&server.connect());
  // No background processes: only the committers flush WAL.
  std::vector<sim::Time> done;
  rig.sim.spawn(commit_at(rig.sim, 0, *backends[0], rel, 0, &done));
  for (int i = 1; i < 8; ++i) rig.sim.spawn(commit_at(rig.sim, sim::kMillisecond, *backends[i], rel, i, &done));
  rig.sim.run();
  // The first flush covers the first commit; the seven that queued behind it share one fdatasync.
  CHECK(rig.fs.of(Call::Fdatasync, os::Volume::Wal).size() == 2);
  CHECK(server.stats().wal_flushes == 2);
  REQUIRE(done.size() == 8);
  CHECK(done[0] == 5 * sim::kMillisecond);
  for (int i = 1; i < 8; ++i) CHECK(done[static_cast<std::size_t>(i)] == 10 * sim::kMillisecond);
}

TEST_CASE("synchronous_commit off: commits do not wait; the WAL writer flushes within wal_writer_delay") {
  PostgresConfig cfg = config_for("15");
  cfg.synchronous_commit = false;
  Rig rig(cfg);
  rig.fs.fdatasync_time = 5 * sim::kMillisecond;
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 50);
  server.start();
  Backend& b = server.connect();
  std::vector<sim::Time> done;
  rig.sim.spawn(commit_at(rig.sim, 10 * sim::kMillisecond, b, rel, 0, &done));
  rig.sim.run_until(sim::kSecond);
  REQUIRE(done.size() == 1);
  CHECK(done[0] == 10 * sim::kMillisecond);
  // Woken by the commit (a whole WAL page is pending), the WAL writer flushes the completed page at
  // once and the partial page holding the commit record in its next round (XLogBackgroundFlush).
  const auto syncs = rig.fs.of(Call::Fdatasync, os::Volume::Wal);
  REQUIRE(syncs.size() == 2);
  for (const Record& r : syncs) CHECK(r.pid == rig.fs.task_named("wal writer process")->pid);
  CHECK(syncs[0].at == 10 * sim::kMillisecond);
  CHECK(syncs[1].at == 10 * sim::kMillisecond + 5 * sim::kMillisecond + cfg.wal_writer_delay);
  CHECK(server.wal().flush_lsn() == server.wal().insert_lsn());
}

namespace {
// Dirty evictions by one backend with nobody absorbing the request queue (no checkpointer running).
sim::Process evict_dirty(Backend& b, RelationId rel, int pages) {
  for (int i = 0; i < pages; ++i) co_await b.modify(rel, i, 100);
}
}  // namespace

TEST_CASE("fsync request queue full: 9.1+ compacts it, 9.0 makes the backend fsync") {
  for (const std::string version : {"9.0", "9.1"}) {
    CAPTURE(version);
    PostgresConfig cfg = config_for(version);
    cfg.shared_buffers = 128 * sim::kKiB;  // 16 buffers: a queue of 16 requests
    Rig rig(cfg);
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 200);
    Backend& b = server.connect();
    rig.sim.spawn(evict_dirty(b, rel, 100));  // 84 dirty victims written by the backend
    rig.sim.run();
    const int pid = b.pid();
    std::int64_t backend_fsyncs = 0;
    for (const Record& r : rig.fs.of(Call::Fsync, os::Volume::Data)) backend_fsyncs += r.pid == pid;
    CHECK(server.stats().buffers_backend == 84);
    if (version == "9.0") {
      // 16 requests fill the queue; every later write is fsync'ed by the backend itself.
      CHECK(backend_fsyncs == 84 - 16);
      CHECK(server.sync_queue().compactions() == 0);
      CHECK(server.stats().buffers_backend_fsync == 0);  // no such column in 9.0
    } else {
      // All requests name the same segment: each compaction leaves one, no backend fsync.
      CHECK(backend_fsyncs == 0);
      CHECK(server.sync_queue().compactions() == (84 - 16 + 14) / 15);
      CHECK(server.stats().buffers_backend_fsync == 0);
    }
  }
}
