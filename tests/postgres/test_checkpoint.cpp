// tests/postgres/test_checkpoint.cpp
//
// The checkpointer: pacing against checkpoint_completion_target (by time and
// by WAL), the order and writeback of its writes, the durability invariant,
// and the log_checkpoints lines of each release.
#include <doctest/doctest.h>

#include <algorithm>

#include <fmt/format.h>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {
std::vector<std::int64_t> range(std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}
sim::Process checkpoint_at(sim::Simulator& sim, Server& server, sim::Time t, bool immediate) {
  co_await sim.sleep_until(t);
  server.request_checkpoint(immediate);
}
}  // namespace

TEST_CASE("steady load: the write phase of a timed checkpoint ends near completion_target x checkpoint_timeout") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 8 * sim::kMiB;  // 1024 buffers, the 800-page relation fits
  cfg.checkpoint_timeout = 30 * sim::kSecond;
  cfg.checkpoint_completion_target = 0.5;
  cfg.max_wal_size = 16 * sim::kGiB;  // WAL never triggers
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 800);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(steady_updates(rig.sim, b, rel, 800, 10 * sim::kMillisecond, 100, 95 * sim::kSecond, 7));
  rig.sim.run_until(95 * sim::kSecond);
  const auto& history = server.checkpointer().history();
  REQUIRE(history.size() == 2);  // started at 30 s and 60 s (the one at 90 s is still writing)
  CHECK(server.stats().checkpoints_timed == 3);
  for (const CheckpointRecord& c : history) {
    CAPTURE(c.start);
    CHECK(c.cause == "time");
    CHECK(c.buffers > 300);
    // Paced to end at 0.5 x 30 s = 15 s; it is at most one 100 ms nap and one buffer's share early.
    CHECK(c.write_s == doctest::Approx(15.0).epsilon(0.02));
  }
  // Timed by whole seconds since the previous start; the wait is counted from when the last one ended.
  CHECK(history[0].start == 30 * sim::kSecond);
  CHECK(history[1].start >= 60 * sim::kSecond);
  CHECK(history[1].start < 61 * sim::kSecond);
}

TEST_CASE("WAL-triggered checkpoints: pacing follows WAL consumption (cct x CheckPointSegments)") {
  PostgresConfig cfg = config_for("9.4");
  cfg.shared_buffers = 24 * sim::kMiB;  // 3072 buffers
  cfg.checkpoint_segments = 4;          // CheckPointSegments = 4: a checkpoint every 3-4 segments
  cfg.checkpoint_timeout = 3600 * sim::kSecond;
  cfg.full_page_writes = false;   // a constant WAL rate: 1 kB per millisecond
  cfg.bgwriter_lru_maxpages = 0;  // only the checkpointer writes
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 2000);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(steady_updates(rig.sim, b, rel, 2000, sim::kMillisecond, 1000, 200 * sim::kSecond, 3));
  rig.sim.run_until(200 * sim::kSecond);
  CHECK(server.checkpointer().checkpoint_segments() == 4);
  const auto& history = server.checkpointer().history();
  REQUIRE(history.size() >= 2);
  CHECK(server.stats().checkpoints_req >= 3);
  for (const CheckpointRecord& c : history) {
    CAPTURE(c.start);
    CHECK(c.cause == "xlog");
    // The write phase ends when cct x CPS = 2 segments of WAL were inserted since its start
    // (the last write lands just before; the band is one buffer's share of progress, ~1.5%).
    const double segments = static_cast<double>(c.write_end_lsn - c.redo_lsn) / kWalSegmentBytes;
    CHECK(segments == doctest::Approx(2.0).epsilon(0.03));
  }
}

TEST_CASE("sorted checkpoint writes reach the file system in ascending (file, block) order") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 4 * sim::kMiB;  // 512 buffers
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId a = server.create_relation("a", 300);
  const RelationId c = server.create_relation("c", 300);
  Backend& b = server.connect();
  server.start();
  // Dirty 200 pages of each relation in a scrambled order, then CHECKPOINT.
  std::vector<std::int64_t> blocks;
  for (std::int64_t i = 0; i < 200; ++i) blocks.push_back((i * 97) % 300);
  rig.sim.spawn(modify_blocks(b, c, blocks, 100, false));
  rig.sim.spawn(modify_blocks(b, a, blocks, 100, true));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond, true));
  rig.sim.run_until(5 * sim::kSecond);
  const int ckpt = rig.fs.task_named("checkpointer process")->pid;
  std::vector<std::pair<os::FileId, std::int64_t>> order;
  for (const Record& r : rig.fs.of(Call::Write, os::Volume::Data)) {
    if (r.pid == ckpt) order.emplace_back(r.file, r.block);
  }
  CHECK(order.size() == 400);
  CHECK(std::is_sorted(order.begin(), order.end()));
  CHECK(server.stats().buffers_checkpoint == 400);
}

TEST_CASE("checkpoint_flush_after: one sync_file_range per flush_after of written pages per file") {
  PostgresConfig cfg = config_for("15");
  cfg.shared_buffers = 4 * sim::kMiB;
  cfg.checkpoint_flush_after = 256 * sim::kKiB;  // 32 pages
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 300);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(modify_blocks(b, rel, range(200), 100, true));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond, true));
  rig.sim.run_until(5 * sim::kSecond);
  const int ckpt = rig.fs.task_named("checkpointer process")->pid;
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  for (const Record& r : rig.fs.of(Call::SyncFileRange, os::Volume::Data)) {
    if (r.pid == ckpt) ranges.emplace_back(r.block, r.count);
  }
  // 200 consecutive pages: six runs of 32 and the remainder of 8 issued at the end of BufferSync.
  CHECK(ranges == std::vector<std::pair<std::int64_t, std::int64_t>>{
                      {0, 32}, {32, 32}, {64, 32}, {96, 32}, {128, 32}, {160, 32}, {192, 8}});
}

TEST_CASE("without sorting (9.5), checkpoint writes follow buffer order from the clock hand, not block order") {
  PostgresConfig cfg = config_for("9.5");
  cfg.shared_buffers = 4 * sim::kMiB;
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 300);
  Backend& b = server.connect();
  server.start();
  std::vector<std::int64_t> blocks;
  for (std::int64_t i = 0; i < 200; ++i) blocks.push_back((i * 97) % 300);
  rig.sim.spawn(modify_blocks(b, rel, blocks, 100, true));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond, true));
  rig.sim.run_until(5 * sim::kSecond);
  const int ckpt = rig.fs.task_named("checkpointer process")->pid;
  std::vector<std::int64_t> written;
  for (const Record& r : rig.fs.of(Call::Write, os::Volume::Data)) {
    if (r.pid == ckpt) written.push_back(r.block);
  }
  // Buffers were filled from the freelist in the order the pages were first touched.
  CHECK(written == blocks);
}

namespace {
sim::Process watch_durability(sim::Simulator& sim, Server& server, sim::Time until, int* checks, std::string* failure) {
  std::int64_t seen = 0;
  while (sim.now() < until) {
    co_await sim.sleep(50 * sim::kMillisecond);
    if (server.stats().checkpoints_done != seen) {
      seen = server.stats().checkpoints_done;
      ++*checks;
      std::string why;
      if (!server.check_durability(&why) && failure->empty()) *failure = why;
    }
  }
}
}  // namespace

TEST_CASE("durability: every page dirtied before a completed checkpoint's redo point is written and fsynced") {
  for (const std::string version : {"9.0", "9.4", "15"}) {
    CAPTURE(version);
    PostgresConfig cfg = config_for(version);
    cfg.shared_buffers = 1 * sim::kMiB;  // 128 buffers over 600 pages: constant dirty evictions
    cfg.checkpoint_timeout = 30 * sim::kSecond;
    Rig rig(cfg);
    rig.fs.write_time = 200 * sim::kMicrosecond;
    rig.fs.fsync_time = 300 * sim::kMillisecond;
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 600);
    Backend& b1 = server.connect();
    Backend& b2 = server.connect();
    server.start();
    rig.sim.spawn(steady_updates(rig.sim, b1, rel, 600, 5 * sim::kMillisecond, 100, 100 * sim::kSecond, 1));
    rig.sim.spawn(steady_updates(rig.sim, b2, rel, 600, 7 * sim::kMillisecond, 100, 100 * sim::kSecond, 2));
    int checks = 0;
    std::string failure;
    rig.sim.spawn(watch_durability(rig.sim, server, 100 * sim::kSecond, &checks, &failure));
    rig.sim.run_until(100 * sim::kSecond);
    CHECK(checks >= 2);
    CHECK(failure == "");
    std::string why;
    CHECK(server.check_durability(&why));
    CHECK(server.stats().buffers_backend > 0);  // evictions by backends were part of it
  }
}

TEST_CASE("durability check: a change older than the redo point still dirty in a buffer is reported") {
  PostgresConfig cfg = config_for("15");
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 10);
  Backend& b = server.connect();
  server.start();
  rig.sim.spawn(modify_blocks(b, rel, {1}, 100, true));
  rig.sim.spawn(checkpoint_at(rig.sim, server, sim::kSecond, true));
  rig.sim.run_until(2 * sim::kSecond);
  CHECK(server.check_durability(nullptr));
  // Pretend the checkpoint had missed the page.
  const BufferId id = server.buffer_pool().lookup(BufferTag{rel, 1});
  BufferPoolTesting::durability(server.buffer_pool(), id).dirty_since = 1;
  std::string why;
  CHECK_FALSE(server.check_durability(&why));
  CHECK(why.find("never written") != std::string::npos);
}

namespace {
// A scripted checkpoint: three pages changed at t = 0, CHECKPOINT at 2.5 s, each fsync 250 ms.
std::vector<std::string> scripted_checkpoint_log(const std::string& version) {
  PostgresConfig cfg = config_for(version);
  cfg.log_checkpoints = true;
  Rig rig(cfg);
  rig.fs.fsync_time = 250 * sim::kMillisecond;
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 10);
  server.start();  // the checkpointer (or 9.1-'s writer process) is the postmaster's first child
  Backend& b = server.connect();
  rig.sim.spawn(modify_blocks(b, rel, {0, 1, 2}, 100, false));
  rig.sim.spawn(checkpoint_at(rig.sim, server, 2500 * sim::kMillisecond, true));
  rig.sim.run_until(4 * sim::kSecond);
  // The prefix's pid is the postmaster's plus the task's (the recording file system numbers from 1000):
  // checked here, then written as %p so the expected lines read as log_line_prefix does.
  const std::string pid = fmt::format("[{}]", server.postmaster_pid() + 1000);
  std::vector<std::string> lines = rig.log;
  for (std::string& line : lines) {
    const std::size_t at = line.find(pid);
    CHECK(at != std::string::npos);
    if (at != std::string::npos) line.replace(at, pid.size(), "[%p]");
  }
  return lines;
}
}  // namespace

TEST_CASE("log_checkpoints lines, exactly, per release") {
  // Write phase: 128 headers scanned and 3 pages written (17.56 us of CPU); one segment fsync of 250 ms.
  // 3 records of 100 B + an 8100 B image from 0/1000028 put the redo point at 0/1006088 (24672 B on).
  const std::string start = "2015-08-17 10:00:02.500 UTC [%p] LOG:  checkpoint starting: immediate force wait";
  CHECK(scripted_checkpoint_log("9.0") ==
        std::vector<std::string>{start,
                                 "2015-08-17 10:00:02.750 UTC [%p] LOG:  checkpoint complete: wrote 3 buffers (2.3%); "
                                 "0 transaction log file(s) added, 0 removed, 0 recycled; write=0.000 s, sync=0.250 s, "
                                 "total=0.250 s"});
  CHECK(scripted_checkpoint_log("9.1").at(1) ==
        "2015-08-17 10:00:02.750 UTC [%p] LOG:  checkpoint complete: wrote 3 buffers (2.3%); "
        "0 transaction log file(s) added, 0 removed, 0 recycled; write=0.000 s, sync=0.250 s, total=0.250 s; "
        "sync files=1, longest=0.250 s, average=0.250 s");
  CHECK(scripted_checkpoint_log("9.6").at(1) ==
        "2015-08-17 10:00:02.750 UTC [%p] LOG:  checkpoint complete: wrote 3 buffers (2.3%); "
        "0 transaction log file(s) added, 0 removed, 0 recycled; write=0.000 s, sync=0.250 s, total=0.250 s; "
        "sync files=1, longest=0.250 s, average=0.250 s; distance=24 kB, estimate=24 kB");
  CHECK(scripted_checkpoint_log("10").at(1) ==
        "2015-08-17 10:00:02.750 UTC [%p] LOG:  checkpoint complete: wrote 3 buffers (2.3%); "
        "0 WAL file(s) added, 0 removed, 0 recycled; write=0.000 s, sync=0.250 s, total=0.250 s; "
        "sync files=1, longest=0.250 s, average=0.250 s; distance=24 kB, estimate=24 kB");
  // 15+ rounds elapsed times up to the millisecond; 16+ adds the LSNs.
  CHECK(scripted_checkpoint_log("16").at(1) ==
        "2015-08-17 10:00:02.750 UTC [%p] LOG:  checkpoint complete: wrote 3 buffers (2.3%); "
        "0 WAL file(s) added, 0 removed, 0 recycled; write=0.001 s, sync=0.250 s, total=0.251 s; "
        "sync files=1, longest=0.250 s, average=0.250 s; distance=24 kB, estimate=24 kB; "
        "lsn=0/1006088, redo lsn=0/1006088");
}

TEST_CASE("longest and average fsync times: truncated to the millisecond up to 14, rounded up from 15") {
  CheckpointEnd e;
  e.buffers_written = 3;
  e.nbuffers = 128;
  e.sync_files = 2;
  e.longest_sync_us = 250400;
  e.total_sync_us = 250400 + 100900;  // average 175650 us
  const auto tail = [&](const char* version) {
    const std::string m = checkpoint_complete_message(Version(version), e);
    return m.substr(m.find("; sync files="), m.find(" s;", m.find("; sync files=")) - m.find("; sync files=") + 2);
  };
  CHECK(tail("9.6") == "; sync files=2, longest=0.250 s, average=0.175 s");
  CHECK(tail("14") == "; sync files=2, longest=0.250 s, average=0.175 s");
  CHECK(tail("15") == "; sync files=2, longest=0.251 s, average=0.176 s");
}

TEST_CASE("checkpoint starting: the WAL cause is 'xlog' up to 11 and 'wal' from 12") {
  CHECK(checkpoint_starting_message(Version("9.6"), kCheckpointCauseXlog) == "checkpoint starting: xlog");
  CHECK(checkpoint_starting_message(Version("11"), kCheckpointCauseXlog) == "checkpoint starting: xlog");
  CHECK(checkpoint_starting_message(Version("12"), kCheckpointCauseXlog) == "checkpoint starting: wal");
  CHECK(checkpoint_starting_message(Version("17"), kCheckpointCauseTime) == "checkpoint starting: time");
  CHECK(log_prefix(86400 * sim::kSecond + 5, 42) == "2015-08-18 10:00:00.000 UTC [42] LOG:  ");
}

TEST_CASE("a checkpoint's cause is its flags' words, as data; the starting line is built from it") {
  CHECK(checkpoint_cause(Version("9.6"), kCheckpointImmediate | kCheckpointForce | kCheckpointWait) ==
        "immediate force wait");
  CHECK(checkpoint_cause(Version("15"), kCheckpointCauseXlog) == "wal");
  CHECK(checkpoint_cause(Version("9.6"), kCheckpointShutdown | kCheckpointImmediate) == "shutdown immediate");
  CHECK(checkpoint_cause(Version("9.6"), 0).empty());
  CHECK(checkpoint_starting_message(Version("9.6"), 0) == "checkpoint starting:");
  CHECK(checkpoint_starting_message(Version("9.6"), kCheckpointForce | kCheckpointCauseTime) ==
        "checkpoint starting: force time");
}

TEST_CASE("CheckPointSegments per release: checkpoint_segments, max_wal_size/(2+cct), max_wal_size/(1+cct)") {
  const auto cps = [](const std::string& version, double cct) {
    PostgresConfig cfg = config_for(version);
    cfg.checkpoint_completion_target = cct;
    cfg.max_wal_size = 1 * sim::kGiB;
    cfg.checkpoint_segments = 3;
    Rig rig(cfg);
    return rig.make().checkpointer().checkpoint_segments();
  };
  CHECK(cps("9.4", 0.5) == 3);
  CHECK(cps("9.5", 0.5) == 25);  // 64 / 2.5
  CHECK(cps("9.6", 0.8) == 22);  // 64 / 2.8 (E1 small)
  CHECK(cps("11", 0.5) == 42);   // 64 / 1.5
  CHECK(cps("14", 0.9) == 33);   // 64 / 1.9
}

TEST_CASE("pg_wal after the load: min_wal_size's files when it skipped WAL (9.x), XLOGfileslop's when it was logged (10+)") {
  // The files a started server has, after a load of `load_mb` of relations.
  const auto files_after = [](const std::string& version, std::int64_t load_mb, sim::Bytes max_wal_size) {
    PostgresConfig cfg = config_for(version);
    cfg.max_wal_size = max_wal_size;
    cfg.min_wal_size = 80 * sim::kMiB;
    cfg.checkpoint_completion_target = 0.9;
    Rig rig(cfg);
    Server& server = rig.make();
    server.create_relation("t", load_mb * sim::kMiB / (8 * sim::kKiB));
    server.start();
    return server.wal().segments().count();
  };
  // 9.6 (wal_level minimal): the load's COPY skipped WAL: segment 1 and min_wal_size's 4 ahead.
  CHECK(files_after("9.6", 1500, sim::kGiB) == 5);
  // 15, a 1.5 GB load, max_wal_size 1GB: its checkpoints came every 1024 / 1.9 = 539 MB, so the
  // target is 1.1 x 1.9 x 539 MB = 1127 MB, capped at max_wal_size: 64 files.
  CHECK(files_after("15", 1500, sim::kGiB) == 64);
  // A 100 MB load never reached a WAL-triggered checkpoint; it wrote 7 segments, all kept.
  CHECK(files_after("15", 100, sim::kGiB) == 7);
  // A load smaller than min_wal_size still leaves min_wal_size's files.
  CHECK(files_after("15", 10, sim::kGiB) == 5);
}
