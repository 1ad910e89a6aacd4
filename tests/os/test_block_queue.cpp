// tests/os/test_block_queue.cpp
//
// The block layer on a fake device: merging and plugging, the request pool,
// elevators (noop vs deadline, CFQ's preference for sync reads), flush
// draining, diskstats.
#include <doctest/doctest.h>

#include <vector>

#include "fake_device.h"
#include "models/os/block_queue.h"
#include "sim/process.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDevice;
using ckptsim::os::testing::FakeDeviceConfig;

namespace {

// Records each bio's completion time.
struct Recorder final : BioOwner {
  sim::Simulator* sim = nullptr;
  std::vector<sim::Time> done;
  void bio_done(Bio& bio) override {
    done.resize(std::max<std::size_t>(done.size(), static_cast<std::size_t>(bio.first_block) + 1), -1);
    done[static_cast<std::size_t>(bio.first_block)] = sim->now();
  }
};

Bio make_bio(disk::Op op, std::int64_t sector, std::int64_t bytes, bool sync, Recorder& owner, std::int64_t id,
             int pid = 1) {
  Bio bio;
  bio.op = op;
  bio.sector = sector;
  bio.bytes = bytes;
  bio.sync = sync;
  bio.owner = &owner;
  bio.first_block = id;
  bio.pid = pid;
  return bio;
}

OsConfig legacy(Scheduler scheduler) {
  OsConfig c;
  c.block_layer = BlockLayer::Legacy;
  c.scheduler = scheduler;
  return c;
}

}  // namespace

TEST_CASE("contiguous bios of one plug merge into requests of at most max_sectors_kb") {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{});
  OsConfig config = legacy(Scheduler::Noop);
  BlockQueue queue(sim, config, dev, config.scheduler, "sda");
  Recorder rec;
  rec.sim = &sim;
  // 128 x 8 kB contiguous writes = 1 MiB -> two 512 kB requests.
  std::vector<Bio> bios;
  bios.reserve(128);
  for (int i = 0; i < 128; ++i) bios.push_back(make_bio(disk::Op::Write, 1000 + 16 * i, 8192, false, rec, i));
  Plug plug;
  for (Bio& bio : bios) REQUIRE(queue.try_submit(bio, &plug));
  queue.unplug(plug);
  sim.run();
  REQUIRE(dev.log.size() == 2);
  CHECK(dev.log[0].bytes == 512 * 1024);
  CHECK(dev.log[1].sector == 1000 + 1024);
  const DiskStats s = queue.stats();
  CHECK(s.writes == 2);
  CHECK(s.write_merges == 126);
  CHECK(s.write_sectors == 2048);
  CHECK(s.in_flight == 0);
  // iostat -x over the run, as sysstat 12 derives it from two /proc/diskstats snapshots:
  // wrqm/s = merges / s, wareq-sz = sectors / 2 / writes (kB per request).
  const Iostat io = iostat(DiskStats{}, s, 2 * sim::kSecond);
  CHECK(io.w_s == doctest::Approx(1.0));
  CHECK(io.wrqm_s == doctest::Approx(63.0));
  CHECK(io.wareq_sz == doctest::Approx(512.0));
  CHECK(io.rrqm_s == 0);
  CHECK(io.rareq_sz == 0);  // no reads: 0, as iostat prints it
}

namespace {

// 128 async 8 kB writes at scattered sectors fill the device (depth 31,
// 10 ms each) and the elevator; then one sync read arrives. Returns its latency.
// With `second`, a second read is issued 50 ms after the first completes,
// while the writes still pour in, and its latency is stored there.
sim::Duration read_behind_writes(Scheduler scheduler, int* writes_before_read = nullptr,
                                 sim::Duration* second = nullptr) {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{.queue_depth = 31, .fixed = 10 * sim::kMillisecond, .bytes_per_second = 1e15});
  OsConfig config = legacy(scheduler);
  BlockQueue queue(sim, config, dev, config.scheduler, "sda");
  Recorder rec;
  rec.sim = &sim;
  std::vector<Bio> writes;
  writes.reserve(128);
  for (int i = 0; i < 128; ++i) {
    writes.push_back(make_bio(disk::Op::Write, 1'000'000 + 997 * 16 * i, 8192, false, rec, i, 0));
    REQUIRE(queue.try_submit(writes.back(), nullptr));
  }
  sim.run_until(sim::kMillisecond);
  Bio read = make_bio(disk::Op::Read, 50, 8192, true, rec, 200, 7);
  const sim::Time issued = sim.now();
  REQUIRE(queue.try_submit(read, nullptr));
  Bio read2 = make_bio(disk::Op::Read, 90, 8192, true, rec, 201, 7);
  if (second != nullptr) {
    while (rec.done.size() <= 200 || rec.done[200] < 0) sim.run_until(sim.now() + sim::kMillisecond);
    sim.run_until(sim.now() + 50 * sim::kMillisecond);
    const sim::Time at = sim.now();
    REQUIRE(queue.try_submit(read2, nullptr));
    sim.run();
    *second = rec.done[201] - at;
  }
  sim.run();
  if (writes_before_read != nullptr) {
    *writes_before_read = 0;
    for (int i = 0; i < 128; ++i) *writes_before_read += rec.done[static_cast<std::size_t>(i)] < rec.done[200];
  }
  return rec.done[200] - issued;
}

}  // namespace

TEST_CASE("noop: a read waits behind every queued write; deadline: within read_expire plus its service time") {
  const sim::Duration noop = read_behind_writes(Scheduler::Noop);
  const sim::Duration deadline = read_behind_writes(Scheduler::Deadline);
  // noop: all 128 writes go first (FIFO): 129 x 10 ms.
  CHECK(noop == doctest::Approx(129 * 10 * sim::kMillisecond).epsilon(0.01));
  // deadline: reads are preferred once the device has a slot; the read waits
  // only for the 31 writes already in the device.
  CHECK(deadline <= 500 * sim::kMillisecond + 10 * sim::kMillisecond);
  CHECK(deadline == doctest::Approx(32 * 10 * sim::kMillisecond).epsilon(0.02));
}

TEST_CASE("cfq: once a read has been delayed, async writes trickle one at a time and reads go first") {
  // The first read waits for the 31 async writes in the device (a sync queue
  // drains async first); it took > fifo_expire_sync, so the async depth drops
  // to 1 and the next read waits for at most one write.
  sim::Duration cfq_second = 0, deadline_second = 0;
  const sim::Duration cfq_first = read_behind_writes(Scheduler::Cfq, nullptr, &cfq_second);
  read_behind_writes(Scheduler::Deadline, nullptr, &deadline_second);
  CHECK(cfq_first == doctest::Approx(32 * 10 * sim::kMillisecond).epsilon(0.02));
  CHECK(cfq_second <= 20 * sim::kMillisecond);
  CHECK(deadline_second >= 300 * sim::kMillisecond);  // deadline refills the device with 31 writes
}

TEST_CASE("the request pool: a submitter sleeps while its class is full; sync and async pools are separate") {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{.queue_depth = 1, .fixed = 10 * sim::kMillisecond, .bytes_per_second = 1e15});
  OsConfig config = legacy(Scheduler::Noop);
  config.nr_requests = 4;
  BlockQueue queue(sim, config, dev, config.scheduler, "sda");
  Recorder rec;
  rec.sim = &sim;
  std::vector<Bio> bios;
  bios.reserve(10);
  for (int i = 0; i < 5; ++i) bios.push_back(make_bio(disk::Op::Write, 100000 * i, 8192, false, rec, i));
  for (int i = 0; i < 4; ++i) REQUIRE(queue.try_submit(bios[static_cast<std::size_t>(i)], nullptr));
  CHECK_FALSE(queue.try_submit(bios[4], nullptr));  // async pool full
  CHECK(queue.congested(false));
  bios.push_back(make_bio(disk::Op::Read, 7, 8192, true, rec, 5));
  CHECK(queue.try_submit(bios[5], nullptr));  // the sync pool is separate
  sim::Time granted = -1;
  sim.spawn([](BlockQueue& q, Bio& bio, sim::Simulator& s, sim::Time& at) -> sim::Process {
    q.submit_into(co_await q.get_request(false), bio, nullptr);
    at = s.now();
  }(queue, bios[4], sim, granted));
  sim.run();
  CHECK(granted == 10 * sim::kMillisecond);  // the first write's completion freed its slot
  CHECK(queue.stats().writes == 5);
}

TEST_CASE("a SATA cache flush waits for the device queue to drain and nothing overtakes it") {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{.queue_depth = 4,
                                       .queued_flush = false,
                                       .volatile_cache = true,
                                       .fixed = 10 * sim::kMillisecond,
                                       .bytes_per_second = 1e15,
                                       .flush_time = 5 * sim::kMillisecond});
  OsConfig config = legacy(Scheduler::Noop);
  BlockQueue queue(sim, config, dev, config.scheduler, "sda");
  Recorder rec;
  rec.sim = &sim;
  std::vector<Bio> bios;
  bios.reserve(8);
  for (int i = 0; i < 4; ++i) bios.push_back(make_bio(disk::Op::Write, 100000 * i, 8192, false, rec, i));
  for (Bio& b : bios) REQUIRE(queue.try_submit(b, nullptr));
  sim::Time flushed = -1;
  sim.spawn([](BlockQueue& q, sim::Simulator& s, sim::Time& at) -> sim::Process {
    co_await q.flush_cache();
    at = s.now();
  }(queue, sim, flushed));
  sim.run_until(sim::kMillisecond);
  Bio late = make_bio(disk::Op::Read, 5, 8192, true, rec, 9);
  REQUIRE(queue.try_submit(late, nullptr));
  sim.run();
  CHECK(flushed == 45 * sim::kMillisecond);      // 4 writes x 10 ms, then the 5 ms flush
  CHECK(rec.done[9] == 55 * sim::kMillisecond);  // the read waited for the flush
  CHECK(queue.stats().flushes == 1);
}

TEST_CASE("cache flushes coalesce: callers that arrive while one is in flight share the next one") {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{.queue_depth = 4, .volatile_cache = true, .flush_time = 5 * sim::kMillisecond});
  OsConfig config = legacy(Scheduler::Noop);
  BlockQueue queue(sim, config, dev, config.scheduler, "sda");
  std::vector<sim::Time> flushed(3, -1);
  const auto caller = [](BlockQueue& q, sim::Simulator& s, sim::Duration start, sim::Time& at) -> sim::Process {
    co_await s.sleep(start);
    co_await q.flush_cache();
    at = s.now();
  };
  sim.spawn(caller(queue, sim, 0, flushed[0]));
  sim.spawn(caller(queue, sim, sim::kMillisecond, flushed[1]));
  sim.spawn(caller(queue, sim, 2 * sim::kMillisecond, flushed[2]));
  sim.run();
  CHECK(flushed[0] == 5 * sim::kMillisecond);   // the first flush, issued at 0
  CHECK(flushed[1] == 10 * sim::kMillisecond);  // both later callers: the second flush, issued at 5 ms
  CHECK(flushed[2] == 10 * sim::kMillisecond);
  CHECK(queue.stats().flushes == 2);
}
