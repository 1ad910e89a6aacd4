// tests/os/test_journal.cpp
//
// ext4's jbd2 journal on 3.2 (models/os/jbd2.h): handles against a T_LOCKED
// commit, handles held across sleeps (writepages' bio submission, a write's
// stable-page wait), ordered data, and ext4_sync_file's commit rule.
#include <doctest/doctest.h>

#include "kernel_harness.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDeviceConfig;
using ckptsim::os::testing::Machine;
using ckptsim::os::testing::profile;

namespace {
const Memory kSmall{1 * sim::kGiB, 0};
constexpr sim::Duration kMs = sim::kMillisecond;
// One command at a time, 50 ms each: a full request pool frees a slot every 50 ms.
const FakeDeviceConfig kSlowDisk{.queue_depth = 1, .fixed = 50 * kMs};

sim::Process at(sim::Simulator& s, sim::Time when, std::function<sim::Task<>()> body, sim::Time* done) {
  co_await s.sleep(when - s.now());
  co_await body();
  *done = s.now();
}
}  // namespace

TEST_CASE("a write(2) during T_LOCKED waits for a handle that writepages holds while it sleeps for a request slot") {
  for (const bool holds : {true, false}) {
    CAPTURE(holds);
    OsConfig c = profile("linux-3.2");
    c.writepages_holds_handle = holds;
    c.nr_requests = 2;
    c.scheduler = Scheduler::Noop;
    c.commit_interval = 1025 * kMs;  // between two of the device's completions (every 50 ms)
    Machine m(c, kSmall, kSlowDisk);
    OsTask& syncer = m.kernel.new_task("syncer");
    OsTask& writer = m.kernel.new_task("writer");
    const FileId a = m.kernel.create("a", Volume::Data, 400, 400);
    const FileId b = m.kernel.create("b", Volume::Data, 10, 10);
    // 100 scattered blocks through 2 request slots: 5 s of sync_file_range,
    // which spans the commit that the first write's transaction asks for at 1.025 s.
    sim::Time writer_done = -1;
    m.sim.spawn(at(
        m.sim, 1026 * kMs, [&]() -> sim::Task<> { co_await m.kernel.write(writer, b, 3); }, &writer_done));
    m.run([&]() -> sim::Task<> {
      for (std::int64_t blk = 0; blk < 400; blk += 4) co_await m.kernel.write(syncer, a, blk);
      co_await m.kernel.sync_file_range(syncer, a, 0, 400);
    });
    m.sim.run_until(m.sim.now() + 10 * sim::kSecond);
    REQUIRE(writer_done > 0);
    const sim::Duration waited = writer.io_layers.total(IoLayer::Journal);
    if (holds) {
      // The commit locked at 1 s waits for the syncer's handle, which is released when its
      // bio gets a slot (one command, <= 50 ms); the writer waits that long, and no more.
      CHECK(waited > 0);
      CHECK(waited <= 50 * kMs);
      CHECK(m.kernel.journal().report().locked_max > 0);
      CHECK(m.kernel.journal().report().handle_waits >= 1);
    } else {
      CHECK(waited == 0);
      CHECK(m.kernel.journal().report().locked_max == 0);
    }
    CHECK(m.kernel.report().journal_commits >= 1);
  }
}

TEST_CASE(
    "a write to a page under writeback waits for it, holding its handle: a commit and every other writer wait too") {
  OsConfig c = profile("linux-3.2");
  c.writepages_holds_handle = false;  // only the stable-page wait holds a handle here
  c.scheduler = Scheduler::Noop;
  c.commit_interval = 1 * sim::kSecond;
  Machine m(c, kSmall, FakeDeviceConfig{.queue_depth = 1, .fixed = 2 * sim::kSecond});
  OsTask& rewriter = m.kernel.new_task("rewriter");
  OsTask& other = m.kernel.new_task("other");
  const FileId f = m.kernel.create("wal", Volume::Data, 10, 10);
  const FileId h = m.kernel.create("log", Volume::Data, 10, 10);
  sim::Time rewrite_done = -1, other_done = -1;
  // 0: block 0 of f goes to the device for 2 s; the transaction started now expires at 1 s.
  m.run([&]() -> sim::Task<> {
    co_await m.kernel.write(rewriter, f, 0);
    co_await m.kernel.sync_file_range(rewriter, f, 0, 1);
  });
  // 10 ms: rewrite block 0 (stable page: waits, handle held); 1 s: the commit
  // locks and waits for that handle; 1.1 s: a write to another file.
  m.sim.spawn(at(
      m.sim, 10 * kMs, [&]() -> sim::Task<> { co_await m.kernel.write(rewriter, f, 0); }, &rewrite_done));
  m.sim.spawn(at(
      m.sim, 1100 * kMs, [&]() -> sim::Task<> { co_await m.kernel.write(other, h, 0); }, &other_done));
  m.sim.run_until(10 * sim::kSecond);
  REQUIRE(rewrite_done > 0);
  REQUIRE(other_done > 0);
  CHECK(rewrite_done >= 2 * sim::kSecond);  // its page's write took 2 s
  CHECK(rewriter.io_layers.total(IoLayer::Device) >= 1900 * kMs);
  // The unrelated write waited for the commit's lock until that handle was stopped.
  CHECK(other_done >= rewrite_done);
  CHECK(other.io_layers.total(IoLayer::Journal) >= 800 * kMs);
  CHECK(m.kernel.journal().report().locked_max >= 900 * kMs);
  // Without stable pages the rewrite does not wait, and neither does anyone else.
  c.stable_pages = false;
  Machine n(c, kSmall, FakeDeviceConfig{.queue_depth = 1, .fixed = 2 * sim::kSecond});
  OsTask& r2 = n.kernel.new_task("rewriter");
  const FileId f2 = n.kernel.create("wal", Volume::Data, 10, 10);
  n.run([&]() -> sim::Task<> {
    co_await n.kernel.write(r2, f2, 0);
    co_await n.kernel.sync_file_range(r2, f2, 0, 1);
  });
  CHECK(n.run([&]() -> sim::Task<> { co_await n.kernel.write(r2, f2, 0); }) == 0);
  n.sim.run_until(10 * sim::kSecond);
}

TEST_CASE("ordered data: writeback that allocates files the inode, and the next commit writes its dirty pages first") {
  for (const bool ordered : {true, false}) {
    CAPTURE(ordered);
    OsConfig c = profile("linux-3.2");
    c.ordered_data = ordered;
    c.scheduler = Scheduler::Noop;
    c.commit_interval = 0;
    Machine m(c, kSmall, FakeDeviceConfig{.queue_depth = 1, .fixed = 10 * kMs});
    OsTask& t = m.kernel.new_task("backend");
    OsTask& s = m.kernel.new_task("checkpointer");
    const FileId hist = m.kernel.create("history", Volume::Data, 100, 1000);
    const FileId rel = m.kernel.create("rel", Volume::Data, 10, 10);
    m.run([&]() -> sim::Task<> {
      for (std::int64_t b = 0; b < 100; b += 2) co_await m.kernel.write(t, hist, b);  // 50 overwrites
      co_await m.kernel.write(t, hist, 100);                                          // an append: delayed
      co_await m.kernel.sync_file_range(t, hist, 100, 1);                             // allocates block 100
      co_await m.kernel.write(s, rel, 0);
    });
    const sim::Duration took = m.run([&]() -> sim::Task<> { co_await m.kernel.fsync(s, rel); });
    CHECK(m.kernel.report().pages_written_ordered_data == (ordered ? 50 * kPagesPerBlock : 0));
    if (ordered) CHECK(took >= 50 * 10 * kMs);  // the commit waited for 50 writes of 10 ms
    if (!ordered) CHECK(took < 100 * kMs);
  }
}

TEST_CASE("3.2's ext4_sync_file waits only for a commit it asked for; 3.9's waits for one already committing") {
  for (const bool waits : {false, true}) {
    CAPTURE(waits);
    OsConfig c = profile("linux-3.2");
    c.fsync_waits_committing = waits;
    c.scheduler = Scheduler::Noop;
    c.commit_interval = 0;
    c.barrier = false;
    Machine m(c, kSmall, FakeDeviceConfig{.queue_depth = 1, .fixed = 10 * kMs});
    OsTask& a = m.kernel.new_task("a");
    OsTask& b = m.kernel.new_task("b");
    OsTask& h = m.kernel.new_task("history");
    const FileId fa = m.kernel.create("fa", Volume::Data, 10, 10);
    const FileId fb = m.kernel.create("fb", Volume::Data, 10, 10);
    const FileId hist = m.kernel.create("history", Volume::Data, 100, 1000);
    // A slow commit: 50 dirty pages of an inode filed for ordered data.
    m.run([&]() -> sim::Task<> {
      for (std::int64_t blk = 0; blk < 100; blk += 2) co_await m.kernel.write(h, hist, blk);
      co_await m.kernel.write(h, hist, 100);
      co_await m.kernel.sync_file_range(h, hist, 100, 1);
      co_await m.kernel.write(a, fa, 0);
      co_await m.kernel.write(b, fb, 0);   // same transaction as a's write
      co_await m.kernel.fdatasync(b, fb);  // b's data on the device: its fsync below only needs the commit
    });
    const sim::Time t0 = m.sim.now();
    sim::Time a_done = -1, b_done = -1;
    m.sim.spawn(at(
        m.sim, t0, [&]() -> sim::Task<> { co_await m.kernel.fsync(a, fa); }, &a_done));
    m.sim.spawn(at(
        m.sim, t0 + 100 * kMs, [&]() -> sim::Task<> { co_await m.kernel.fsync(b, fb); }, &b_done));
    m.sim.run_until(t0 + 10 * sim::kSecond);
    REQUIRE(a_done > 0);
    REQUIRE(b_done > 0);
    CHECK(a_done - t0 >= 500 * kMs);  // a asked for the commit and waited for its ordered data
    if (waits) {
      CHECK(b_done >= a_done);
    } else {
      CHECK(b_done - t0 == 100 * kMs);  // b found the commit requested and returned at once
    }
  }
}
