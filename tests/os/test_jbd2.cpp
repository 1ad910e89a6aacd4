// tests/os/test_jbd2.cpp
//
// Jbd2Journal on its own (models/os/jbd2.h): no kernel, a fake page cache
// behind OrderedDataWriter that records what the commit asks of it, and a
// block device that completes the journal's writes at once. Pins down the
// T_LOCKED rules, ordered data before the commit ends, and ext4_sync_file's
// 3.2 / 3.9 difference.
#include <doctest/doctest.h>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "fake_device.h"
#include "models/os/jbd2.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDevice;

namespace {
constexpr sim::Duration kMs = sim::kMillisecond;

// The page cache as the commit sees it: every call logged with its time;
// waiting for a file's data takes `wait_time`.
struct RecordingWriter final : OrderedDataWriter {
  explicit RecordingWriter(sim::Simulator& s) : sim(s) {}
  sim::Task<> submit_data(OsTask& task, FileId file) override {
    calls.push_back("submit " + std::to_string(file) + " by " + task.name);
    co_return;
  }
  sim::Task<> wait_data(OsTask& /*task*/, FileId file) override {
    co_await sim.sleep(wait_time);
    calls.push_back("waited " + std::to_string(file) + " at " + std::to_string(sim.now() / kMs));
  }
  sim::Simulator& sim;
  sim::Duration wait_time = 50 * kMs;
  std::vector<std::string> calls;
};

// Completes every bio as it is submitted; flushes are instant.
struct InstantQueue final : BlockDevice {
  explicit InstantQueue(sim::Simulator& s) : disk(s, {}) {}
  std::int64_t max_sectors() const override { return 1024; }
  sim::Task<> submit_bio(Bio& bio, Plug*, sim::StateClock<IoLayer>*) override {
    sectors += bio.bytes / 512;
    bio.owner->bio_done(bio);
    co_return;
  }
  void unplug(Plug&) override {}
  sim::Task<> flush_cache() override {
    ++flushes;
    co_return;
  }
  bool write_congested() const override { return false; }
  DiskStats stats() const override { return {}; }
  std::int64_t sectors_written() const override { return sectors; }
  const char* scheduler() const override { return "none"; }
  int nr_requests() const override { return 0; }
  const disk::Device& device() const override { return disk; }
  FakeDevice disk;
  std::int64_t sectors = 0;
  int flushes = 0;
};

struct Rig {
  explicit Rig(OsConfig c) : config(c), writer(sim), queue(sim), journal(sim, config, writer) {
    kjournald.pid = 1;
    kjournald.name = "jbd2";
    kjournald.io_layers = sim::StateClock<IoLayer>(sim, IoLayer::None);
    journal.start(kjournald, queue);
  }
  OsTask& task(std::string name) {
    OsTask& t = tasks.emplace_back();
    t.pid = static_cast<int>(tasks.size()) + 1;
    t.name = std::move(name);
    t.io_layers = sim::StateClock<IoLayer>(sim, IoLayer::None);
    return t;
  }
  // Runs `body` from time `at`; `done` gets the time it ended.
  void spawn(sim::Time at, std::function<sim::Task<>()> body, sim::Time* done) {
    sim.spawn([](sim::Simulator& s, sim::Time when, std::function<sim::Task<>()> b, sim::Time* d) -> sim::Process {
      co_await s.sleep(when - s.now());
      co_await b();
      *d = s.now();
    }(sim, at, std::move(body), done));
  }

  sim::Simulator sim;
  OsConfig config;
  RecordingWriter writer;
  InstantQueue queue;
  OsTask kjournald;
  std::deque<OsTask> tasks;
  Jbd2Journal journal;
};

OsConfig quiet_journal() {
  OsConfig c;
  c.commit_interval = 0;  // commits only when asked
  c.barrier = false;
  c.ordered_data = true;
  return c;
}
}  // namespace

TEST_CASE("a handle started while a commit is T_LOCKED waits; the commit waits for the handles already open") {
  Rig r(quiet_journal());
  OsTask& holder = r.task("holder");
  OsTask& syncer = r.task("syncer");
  OsTask& late = r.task("late");
  sim::Time held_until = -1, synced = -1, late_started = -1;
  // 0: a handle opened and held for 100 ms; 10 ms: an fsync asks for the commit; 20 ms: another handle.
  r.spawn(
      0,
      [&]() -> sim::Task<> {
        auto handle = co_await r.journal.start_handle(&holder);
        co_await r.sim.sleep(100 * kMs);
      },
      &held_until);
  r.spawn(
      10 * kMs, [&]() -> sim::Task<> { CHECK(co_await r.journal.commit_for_sync(syncer, 1)); }, &synced);
  r.spawn(
      20 * kMs, [&]() -> sim::Task<> { auto handle = co_await r.journal.start_handle(&late); }, &late_started);
  r.sim.run_until(sim::kSecond);
  CHECK(held_until == 100 * kMs);
  CHECK(late_started == 100 * kMs);  // let in when the holder's handle stopped and the commit unlocked
  CHECK(synced == 100 * kMs);        // nothing filed for ordered data, no device wait
  CHECK(late.io_layers.total(IoLayer::Journal) == 80 * kMs);
  CHECK(r.kjournald.io_layers.total(IoLayer::Journal) == 90 * kMs);
  const JournalReport report = r.journal.report();
  CHECK(report.commits == 1);
  CHECK(report.handle_waits == 1);
  CHECK(report.locked_time == 90 * kMs);
  CHECK(report.locked_max == 90 * kMs);
  CHECK(report.sectors ==
        (r.config.journal_commit_bytes + 4 * sim::kKiB) / 512);  // descriptor + metadata, commit block
  CHECK(r.journal.running_tid() == 2);                           // the late handle belongs to the next transaction
}

TEST_CASE("a commit writes every filed inode, then waits for each, before it completes") {
  Rig r(quiet_journal());
  OsTask& syncer = r.task("syncer");
  r.journal.file_inode(3);
  r.journal.file_inode(5);
  r.journal.file_inode(3);  // filed once per transaction
  sim::Time synced = -1;
  r.spawn(
      0, [&]() -> sim::Task<> { CHECK(co_await r.journal.commit_for_sync(syncer, 1)); }, &synced);
  r.sim.run_until(sim::kSecond);
  CHECK(r.writer.calls ==
        std::vector<std::string>{"submit 3 by jbd2", "submit 5 by jbd2", "waited 3 at 50", "waited 5 at 100"});
  CHECK(synced == 100 * kMs);
  // The next transaction files the same inode again.
  r.journal.file_inode(3);
  r.spawn(
      r.sim.now(), [&]() -> sim::Task<> { CHECK(co_await r.journal.commit_for_sync(syncer, 2)); }, &synced);
  r.sim.run_until(2 * sim::kSecond);
  CHECK(r.writer.calls.size() == 6);
  CHECK(r.writer.calls[4] == "submit 3 by jbd2");
}

TEST_CASE("without ordered data nothing is filed and the commit does not touch the page cache") {
  OsConfig c = quiet_journal();
  c.ordered_data = false;
  Rig r(c);
  OsTask& syncer = r.task("syncer");
  r.journal.file_inode(3);
  sim::Time synced = -1;
  r.spawn(
      0, [&]() -> sim::Task<> { CHECK(co_await r.journal.commit_for_sync(syncer, 1)); }, &synced);
  r.sim.run_until(sim::kSecond);
  CHECK(r.writer.calls.empty());
  CHECK(synced == 0);
}

TEST_CASE("ext4_sync_file: 3.2 returns when the commit was already asked for, 3.9 waits for it") {
  for (const bool waits : {false, true}) {
    CAPTURE(waits);
    OsConfig c = quiet_journal();
    c.fsync_waits_committing = waits;
    Rig r(c);
    OsTask& a = r.task("a");
    OsTask& b = r.task("b");
    r.journal.file_inode(7);  // a 50 ms commit
    sim::Time a_done = -1, b_done = -1;
    bool b_committed = false;
    r.spawn(
        0, [&]() -> sim::Task<> { CHECK(co_await r.journal.commit_for_sync(a, 1)); }, &a_done);
    r.spawn(
        10 * kMs, [&]() -> sim::Task<> { b_committed = co_await r.journal.commit_for_sync(b, 1); }, &b_done);
    r.sim.run_until(sim::kSecond);
    CHECK(a_done == 50 * kMs);
    CHECK(b_committed == waits);
    CHECK(b_done == (waits ? 50 * kMs : 10 * kMs));  // 3.2: the caller flushes instead, at once
    CHECK(r.journal.report().commits == 1);
    // A tid already committed needs nothing either way.
    sim::Time again = -1;
    bool committed_again = true;
    r.spawn(
        r.sim.now(), [&]() -> sim::Task<> { committed_again = co_await r.journal.commit_for_sync(a, 1); }, &again);
    r.sim.run_until(2 * sim::kSecond);
    CHECK_FALSE(committed_again);
  }
}
