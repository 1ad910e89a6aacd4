// tests/postgres/test_fsync_setting.cpp
//
// fsync = off and wal_sync_method: what reaches the OS. With fsync off,
// pg_fsync, pg_fdatasync and pg_flush_data return at once and
// issue_xlog_fsync and ProcessSyncRequests skip (fd.c, xlog.c, sync.c):
// no fsync, fdatasync or sync_file_range at all, and the checkpoint logs
// sync files=0. wal_sync_method = fsync makes the WAL's syncs fsync calls.
#include <doctest/doctest.h>

#include <algorithm>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {

sim::Process checkpoint_at(sim::Simulator& sim, Server& server, sim::Time t) {
  co_await sim.sleep_until(t);
  server.request_checkpoint(true);
}

// 200 pages changed and committed one by one, a checkpoint after 1 s, 5 s in all.
void run_load(Rig& rig) {
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 300);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn([](Backend& backend, RelationId relation) -> sim::Process {
    for (std::int64_t block = 0; block < 200; ++block) {
      co_await backend.modify(relation, block, 100);
      co_await backend.commit();
    }
  }(b, rel));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond));
  rig.sim.run_until(5 * sim::kSecond);
}

std::size_t count(const Rig& rig, Call call) {
  return static_cast<std::size_t>(std::count_if(rig.fs.records().begin(), rig.fs.records().end(),
                                                [call](const Record& r) { return r.call == call; }));
}

bool logged_sync_files_zero(const Rig& rig) {
  return std::any_of(rig.log.begin(), rig.log.end(),
                     [](const std::string& line) { return line.find("sync files=0,") != std::string::npos; });
}

}  // namespace

TEST_CASE("fsync = off: no fsync, fdatasync or sync_file_range reaches the kernel; the checkpoint syncs 0 files") {
  PostgresConfig on = config_for("15");
  on.shared_buffers = 4 * sim::kMiB;
  Rig with(on);
  run_load(with);
  // The same load with fsync on: WAL syncs per commit, the checkpoint's fsyncs and writebacks.
  CHECK(count(with, Call::Fdatasync) >= 200);
  CHECK(count(with, Call::Fsync) >= 1);
  CHECK(count(with, Call::SyncFileRange) >= 1);
  CHECK_FALSE(logged_sync_files_zero(with));

  PostgresConfig off = on;
  off.fsync = false;
  Rig without(off);
  run_load(without);
  CHECK(count(without, Call::Fdatasync) == 0);
  CHECK(count(without, Call::Fsync) == 0);
  CHECK(count(without, Call::SyncFileRange) == 0);
  CHECK(count(without, Call::Write) == count(with, Call::Write));  // the writes themselves are the same
  CHECK(without.server->stats().wal_sync == 0);                    // issue_xlog_fsync returns before counting
  CHECK(logged_sync_files_zero(without));
  // Nothing was promised durable, so the durability invariant does not apply to the files.
  std::string why;
  CHECK(without.server->check_durability(&why));
}

TEST_CASE("wal_sync_method = fsync: the WAL is synced with fsync, not fdatasync") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 4 * sim::kMiB;
  Rig fdatasync_rig(cfg);
  run_load(fdatasync_rig);
  cfg.wal_sync_method = WalSyncMethod::Fsync;
  Rig fsync_rig(cfg);
  run_load(fsync_rig);
  const auto wal_syncs = [](const Rig& rig, Call call) { return rig.fs.of(call, os::Volume::Wal).size(); };
  CHECK(wal_syncs(fsync_rig, Call::Fdatasync) == 0);
  CHECK(wal_syncs(fsync_rig, Call::Fsync) ==
        wal_syncs(fdatasync_rig, Call::Fdatasync) + wal_syncs(fdatasync_rig, Call::Fsync));
  CHECK(fsync_rig.server->stats().wal_sync == fdatasync_rig.server->stats().wal_sync);
}
