// tests/os/test_writepages.cpp
//
// A writeback pass over one file as the flusher runs it, per kernel profile:
// ext4_da_writepages of 3.2 (os.writepages_scan "ext4-da": one extent per
// write_cache_pages_da call, each looking up from the pass's start again; the
// wrap to block 0 only in a call that wrote nothing) against
// write_cache_pages (modern: forward, wrapping in the same call), and the
// flusher's 4 MB per inode visit (writeback_chunk_size) on 3.2.
#include <doctest/doctest.h>

#include <algorithm>

#include "kernel_harness.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDeviceConfig;
using ckptsim::os::testing::Machine;
using ckptsim::os::testing::profile;

namespace {
const Memory kSmall{1 * sim::kGiB, 0};  // 512 MiB of page cache

// The 3.2 profile with noop, so the device serves writes in the order they were submitted.
OsConfig linux_3_2(WritepagesScan scan) {
  OsConfig c = profile("linux-3.2");
  c.scheduler = Scheduler::Noop;
  c.writepages_scan = scan;
  return c;
}

std::int64_t pass(Machine& m, FileId f, std::int64_t nr_to_write) {
  std::int64_t written = -1;
  m.run([&]() -> sim::Task<> { written = co_await m.kernel.writeback_single_inode(f, nr_to_write); });
  m.sim.run_until(m.sim.now() + sim::kSecond);  // its writes complete
  return written;
}
}  // namespace

TEST_CASE("the shipped kernel profiles choose the pass: ext4-da for 3.0 and 3.2, write_cache_pages for modern") {
  CHECK(profile("linux-3.0").writepages_scan == WritepagesScan::Ext4Da);
  CHECK(profile("linux-3.2").writepages_scan == WritepagesScan::Ext4Da);
  CHECK(profile("linux-modern").writepages_scan == WritepagesScan::WriteCachePages);
}

TEST_CASE("ext4-da: a pass that wrote pages does not wrap to the start of the file; the next one does") {
  for (const WritepagesScan scan : {WritepagesScan::Ext4Da, WritepagesScan::WriteCachePages}) {
    CAPTURE(static_cast<int>(scan));
    Machine m(linux_3_2(scan), kSmall);
    OsTask& t = m.kernel.new_task("backend");
    const FileId f = m.kernel.create("rel", Volume::Data, 1000, 1000);
    m.run([&]() -> sim::Task<> { co_await m.kernel.write(t, f, 0, 500); });
    REQUIRE(pass(m, f, 500) == 500);  // budget used up: writeback_index = 500
    m.run([&]() -> sim::Task<> {
      co_await m.kernel.write(t, f, 100, 10);  // behind writeback_index
      co_await m.kernel.write(t, f, 700, 10);  // ahead of it
    });
    if (scan == WritepagesScan::Ext4Da) {
      CHECK(pass(m, f, 512) == 10);  // 700..709 only: io_done, so no wrap
      CHECK(m.kernel.dirty_pages() == 10 * kPagesPerBlock);
      CHECK(pass(m, f, 512) == 10);  // nothing from 500 on: this call wraps
    } else {
      CHECK(pass(m, f, 512) == 20);  // 700..709, then the wrap in the same call
    }
    CHECK(m.kernel.dirty_pages() == 0);
  }
}

TEST_CASE("ext4-da: each extent looks up from the pass's start, so a page dirtied behind the cursor is written next") {
  for (const WritepagesScan scan : {WritepagesScan::Ext4Da, WritepagesScan::WriteCachePages}) {
    CAPTURE(static_cast<int>(scan));
    // 2 ms a write: the pass fills the 128 requests and sleeps for one.
    Machine m(linux_3_2(scan), kSmall, FakeDeviceConfig{.fixed = 2 * sim::kMillisecond});
    OsTask& t = m.kernel.new_task("backend");
    const FileId f = m.kernel.create("rel", Volume::Data, 1000, 1000);
    m.run([&]() -> sim::Task<> {
      for (std::int64_t b = 0; b < 600; b += 2) co_await m.kernel.write(t, f, b, 1);  // 300 one-block extents
    });
    const std::size_t before = m.device.log.size();
    m.sim.spawn([](Machine& mm, OsTask& tt, FileId ff) -> sim::Process {
      co_await mm.sim.sleep(50 * sim::kMillisecond);  // the pass is waiting for a request
      co_await mm.kernel.write(tt, ff, 1, 1);
    }(m, t, f));
    const std::int64_t written = pass(m, f, 512);
    std::vector<std::int64_t> sectors;  // the pass's writes, in the order the device served them
    for (std::size_t i = before; i < m.device.log.size(); ++i) {
      if (m.device.log[i].op == disk::Op::Write && m.device.log[i].bytes == kBlockBytes)
        sectors.push_back(m.device.log[i].sector);
    }
    REQUIRE(!sectors.empty());
    const std::int64_t block0 = *std::min_element(sectors.begin(), sectors.end());
    const auto position = [&](std::int64_t block) {
      return std::find(sectors.begin(), sectors.end(), block0 + block * kSectorsPerBlock) - sectors.begin();
    };
    if (scan == WritepagesScan::Ext4Da) {
      CHECK(written == 301);
      REQUIRE(position(1) < static_cast<std::ptrdiff_t>(sectors.size()));
      CHECK(position(1) > position(200));  // dirtied after the pass passed it ...
      CHECK(position(1) < position(400));  // ... and written within the same pass, out of order
    } else {
      CHECK(written == 300);  // the pass started at 0: block 1 waits for the next visit
      CHECK(position(1) == static_cast<std::ptrdiff_t>(sectors.size()));
      CHECK(m.kernel.dirty_pages() == kPagesPerBlock);
    }
  }
}

TEST_CASE("3.2's flusher writes 4 MB of a file per visit while the device's bandwidth estimate is below 8 MB/s") {
  for (const double mb_s : {4.0, 400.0}) {
    CAPTURE(mb_s);
    // The estimate moves only while the flusher works (idle periods are skipped):
    // 4000 scattered blocks keep it busy on the request pool for seconds on the
    // slow device; on the fast one it stays near its initial 100 MB/s.
    Machine m(linux_3_2(WritepagesScan::Ext4Da), kSmall,
              FakeDeviceConfig{.fixed = mb_s < 8 ? sim::kMillisecond : 50 * sim::kMicrosecond,
                               .bytes_per_second = mb_s * sim::kMiB});
    OsTask& t = m.kernel.new_task("backend");
    const FileId warm = m.kernel.create("warm", Volume::Data, 8000, 8000);
    m.run([&]() -> sim::Task<> {
      for (std::int64_t blk = 0; blk < 8000; blk += 2) co_await m.kernel.write(t, warm, blk, 1);
    });
    m.sim.run_until(60 * sim::kSecond);  // kupdate writes it from 30 s on
    REQUIRE(m.kernel.dirty_pages() == 0);

    const FileId a = m.kernel.create("a", Volume::Data, 2000, 2000);
    const FileId b = m.kernel.create("b", Volume::Data, 10, 10);
    m.run([&]() -> sim::Task<> {
      co_await m.kernel.write(t, a, 0, 2000);  // 16 MB
      co_await m.kernel.write(t, b, 0, 1);
    });
    const std::size_t before = m.device.log.size();
    m.sim.run_until(m.sim.now() + 60 * sim::kSecond);
    REQUIRE(m.kernel.dirty_pages() == 0);
    // a's writes (512 kB bios) before b's single block, whose sector is the highest (allocated last).
    std::int64_t b_sector = 0;
    for (std::size_t i = before; i < m.device.log.size(); ++i) b_sector = std::max(b_sector, m.device.log[i].sector);
    std::int64_t a_bytes = 0;
    bool b_seen = false;
    for (std::size_t i = before; i < m.device.log.size() && !b_seen; ++i) {
      const disk::Command& c = m.device.log[i];
      if (c.op != disk::Op::Write) continue;
      b_seen = c.sector == b_sector;
      if (c.bytes == 512 * sim::kKiB) a_bytes += c.bytes;
    }
    CHECK(b_seen);
    if (mb_s < 8) {
      CHECK(a_bytes == 4 * sim::kMiB);  // MIN_WRITEBACK_PAGES
    } else {
      CHECK(a_bytes >= 8 * sim::kMiB);  // half a second of bandwidth, rounded up to 4 MB steps
    }
  }
}

TEST_CASE("ext4-da: a whole-file fsync leaves writeback_index at 0, so the next pass starts at the head") {
  Machine m(linux_3_2(WritepagesScan::Ext4Da), kSmall);
  OsTask& t = m.kernel.new_task("backend");
  const FileId f = m.kernel.create("rel", Volume::Data, 1000, 1000);
  m.run([&]() -> sim::Task<> { co_await m.kernel.write(t, f, 0, 500); });
  REQUIRE(pass(m, f, 500) == 500);  // writeback_index = 500
  m.run([&]() -> sim::Task<> {
    co_await m.kernel.write(t, f, 600, 1);
    co_await m.kernel.fsync(t, f);  // its last write_cache_pages_da call found nothing from 0: done_index 0
    co_await m.kernel.write(t, f, 100, 10);
    co_await m.kernel.write(t, f, 700, 10);
  });
  CHECK(pass(m, f, 512) == 20);  // from 0: 100..109, then 700..709
  CHECK(m.kernel.dirty_pages() == 0);
}
