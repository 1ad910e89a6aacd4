// tests/os/test_io_layers.cpp
//
// The kernel's account of where a task's time in system calls goes
// (OsTask::io_layers): each wait is named after the layer that holds the
// task, and the named layers add up to the time the call took.
#include <doctest/doctest.h>

#include "kernel_harness.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDeviceConfig;
using ckptsim::os::testing::Machine;
using ckptsim::os::testing::profile;
using ckptsim::os::testing::sata_disk_with_cache;

namespace {
const Memory kSmall{1 * sim::kGiB, 0};

sim::Duration layer(const OsTask& t, IoLayer l) { return t.io_layers.total(l); }
sim::Duration named(const OsTask& t) {
  sim::Duration sum = 0;
  for (int l = 1; l < static_cast<int>(IoLayer::Count); ++l) sum += layer(t, static_cast<IoLayer>(l));
  return sum;
}
}  // namespace

TEST_CASE(
    "two cold reads on a one-command device: the second waits in the scheduler while the first is at the device") {
  OsConfig c = profile("linux-modern");
  c.read_ahead_kb = 0;
  Machine m(c, kSmall, FakeDeviceConfig{.queue_depth = 1, .fixed = 5 * sim::kMillisecond});
  OsTask& a = m.kernel.new_task("a");
  OsTask& b = m.kernel.new_task("b");
  const FileId f = m.kernel.create("rel", Volume::Data, 1000, 1000);
  sim::Time b_done = -1;
  m.sim.spawn([](Kernel& k, OsTask& t, FileId file, sim::Simulator& s, sim::Time& done) -> sim::Process {
    co_await k.read(t, file, 900);
    done = s.now();
  }(m.kernel, b, f, m.sim, b_done));
  const sim::Duration a_took = m.run([&]() -> sim::Task<> { co_await m.kernel.read(a, f, 100); });
  m.sim.run_until(m.sim.now() + sim::kSecond);
  REQUIRE(b_done > 0);
  // b was first at the device; a queued behind it for one command, then had its own.
  const OsTask& first = layer(b, IoLayer::Scheduler) < layer(a, IoLayer::Scheduler) ? b : a;
  const OsTask& second = &first == &a ? b : a;
  CHECK(layer(first, IoLayer::Scheduler) == 0);
  CHECK(layer(first, IoLayer::Device) >= 5 * sim::kMillisecond);
  CHECK(layer(second, IoLayer::Scheduler) >= 5 * sim::kMillisecond);
  CHECK(layer(second, IoLayer::Device) >= 5 * sim::kMillisecond);
  // Nothing else held them, and the layers add up to the calls' time exactly.
  CHECK(named(a) == a_took);
  CHECK(named(b) == b_done);
  CHECK(layer(a, IoLayer::None) + named(a) == m.sim.now());
}

TEST_CASE("fsync's wait is at the device, its commit in the journal; fdatasync of an overwrite is a device flush") {
  OsConfig c = profile("linux-3.2");
  c.scheduler = Scheduler::Noop;
  Machine m(c, kSmall, sata_disk_with_cache());
  OsTask& t = m.kernel.new_task("checkpointer");
  const FileId f = m.kernel.create("rel", Volume::Data, 1000, 1000);
  const sim::Duration took = m.run([&]() -> sim::Task<> {
    for (std::int64_t b = 0; b < 1000; b += 10) co_await m.kernel.write(t, f, b);
    co_await m.kernel.fsync(t, f);
  });
  CHECK(named(t) == took);
  CHECK(layer(t, IoLayer::Journal) >= 40 * sim::kMillisecond);  // two flushes of 20 ms in the commit
  CHECK(layer(t, IoLayer::Device) + layer(t, IoLayer::Scheduler) >= 100 / 4 * 2 * sim::kMillisecond);
  CHECK(layer(t, IoLayer::BalanceDirtyPages) == 0);

  const sim::Duration journal_before = layer(t, IoLayer::Journal);
  const sim::Duration device_before = layer(t, IoLayer::Device);
  m.run([&]() -> sim::Task<> {
    co_await m.kernel.write(t, f, 5);
    co_await m.kernel.fdatasync(t, f);
  });
  CHECK(layer(t, IoLayer::Journal) == journal_before);
  CHECK(layer(t, IoLayer::Device) - device_before >= 20 * sim::kMillisecond);  // the write, then the flush
}

TEST_CASE(
    "a writer faster than the device is held in balance_dirty_pages; an fsync behind a full pool waits for a request slot") {
  OsConfig c = profile("linux-3.2");
  c.nr_requests = 4;
  Machine m(c, kSmall, FakeDeviceConfig{.fixed = 100 * sim::kMicrosecond, .bytes_per_second = 20.0 * sim::kMiB});
  OsTask& writer = m.kernel.new_task("writer");
  OsTask& syncer = m.kernel.new_task("syncer");
  const FileId f = m.kernel.create("table", Volume::Data, 0, 262144);
  const FileId g = m.kernel.create("other", Volume::Data, 4000, 4000);
  const sim::Duration took = m.run([&]() -> sim::Task<> {
    for (std::int64_t b = 0; b < 60000; ++b) co_await m.kernel.write(writer, f, b);
  });
  CHECK(m.kernel.throttle().pauses() > 0);
  CHECK(layer(writer, IoLayer::BalanceDirtyPages) > took / 2);
  CHECK(named(writer) == took);
  // 2000 scattered blocks through 4 request slots.
  m.run([&]() -> sim::Task<> {
    for (std::int64_t b = 0; b < 4000; b += 2) co_await m.kernel.write(syncer, g, b);
    co_await m.kernel.fsync(syncer, g);
  });
  CHECK(layer(syncer, IoLayer::RequestSlot) > 0);
}

TEST_CASE("with barrier=0 (nobarrier) fsync and the jbd2 commit send no cache flush") {
  for (const bool barrier : {true, false}) {
    CAPTURE(barrier);
    OsConfig c = profile("linux-3.2");
    c.barrier = barrier;
    Machine m(c, kSmall,
              FakeDeviceConfig{.queue_depth = 4, .volatile_cache = true, .flush_time = 20 * sim::kMillisecond});
    OsTask& t = m.kernel.new_task("wal writer");
    const FileId f = m.kernel.create("wal", Volume::Data, 100, 100);
    const sim::Duration took = m.run([&]() -> sim::Task<> {
      co_await m.kernel.write(t, f, 0);
      co_await m.kernel.fsync(t, f);  // mtime: a jbd2 commit
      co_await m.kernel.write(t, f, 1);
      co_await m.kernel.fdatasync(t, f);  // an overwrite: a plain flush, or nothing
    });
    const std::int64_t flushes = m.kernel.report().devices.at(0).flushes;
    CHECK(flushes == (barrier ? 3 : 0));
    CHECK((took >= 60 * sim::kMillisecond) == barrier);
    CHECK(m.kernel.report().journal_commits == 1);
  }
}
