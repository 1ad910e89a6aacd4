// tests/os/test_md_raid1.cpp
//
// md RAID1 as Linux 3.2 layers it (models/os/md_raid1.h): writes queue for
// raid1d in arrival order, writers sleep on max_queued_requests, reads go to
// one member from the reader's context, a write ends with its last clone.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "fake_device.h"
#include "models/disk/raid1.h"
#include "models/os/block_queue.h"
#include "models/os/kernel.h"
#include "models/os/md_raid1.h"
#include "sim/process.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDevice;
using ckptsim::os::testing::FakeDeviceConfig;

namespace {

// A member disk that notes who submitted each command it receives (the
// block layer's Request carries the pid CFQ queued it under).
class RecordingDevice final : public disk::Device {
 public:
  struct Seen {
    disk::Op op;
    std::int64_t sector;
    int pid;
    bool sync;
  };
  RecordingDevice(sim::Simulator& sim, FakeDeviceConfig config) : fake(sim, config) {}
  const disk::DeviceInfo& info() const override { return fake.info(); }
  bool can_accept(disk::Op op) const override { return fake.can_accept(op); }
  void submit(disk::Command& c) override {
    // Only a member's own queue sends Requests; under "device" layering the
    // array sends its clones, which carry no pid.
    if (c.op != disk::Op::Flush && dynamic_cast<const BlockQueue*>(c.owner) != nullptr) {
      const auto& rq = static_cast<const Request&>(c);
      seen.push_back({c.op, c.sector, rq.pid, rq.sync});
    }
    fake.submit(c);
  }
  int outstanding() const override { return fake.outstanding(); }
  // When the command at `sector` completed (-1: not yet).
  sim::Time completed(std::int64_t sector) const {
    for (const disk::Command& c : fake.log) {
      if (c.op != disk::Op::Flush && c.sector == sector) return c.device_end;
    }
    return -1;
  }
  FakeDevice fake;
  std::vector<Seen> seen;
};

struct Recorder final : BioOwner {
  sim::Simulator* sim = nullptr;
  std::vector<sim::Time> done;
  void bio_done(Bio& bio) override { done[static_cast<std::size_t>(bio.first_block)] = sim->now(); }
};

OsConfig legacy_cfq(std::int64_t nr_requests, MdLayering layering) {
  OsConfig c;
  c.block_layer = BlockLayer::Legacy;
  c.scheduler = Scheduler::Cfq;
  c.nr_requests = nr_requests;
  c.md_layering = layering;
  return c;
}

// Two members under md, with a raid1d task of pid 1.
struct Array {
  explicit Array(OsConfig c, FakeDeviceConfig disk0 = {}, FakeDeviceConfig disk1 = {}) : config(c) {
    std::vector<std::unique_ptr<disk::Device>> members;
    members.push_back(std::make_unique<RecordingDevice>(sim, disk0));
    members.push_back(std::make_unique<RecordingDevice>(sim, disk1));
    disks[0] = static_cast<RecordingDevice*>(members[0].get());
    disks[1] = static_cast<RecordingDevice*>(members[1].get());
    array = std::make_unique<disk::Raid1>(sim, std::move(members));
    raid1d.pid = 1;
    raid1d.name = "md0_raid1d";
    raid1d.io_layers = sim::StateClock<IoLayer>(sim, IoLayer::None);
    recorder.sim = &sim;
  }
  void start_md() {
    md = std::make_unique<MdRaid1>(sim, config, *array, config.scheduler, raid1d);
    sim.spawn(md->raid1d());
  }
  Bio& bio(std::int64_t id, disk::Op op, std::int64_t sector, bool sync, int pid) {
    bios.push_back(std::make_unique<Bio>());
    Bio& b = *bios.back();
    b.op = op;
    b.sector = sector;
    b.bytes = 8192;
    b.sync = sync;
    b.pid = pid;
    b.owner = &recorder;
    b.first_block = id;
    recorder.done.resize(std::max<std::size_t>(recorder.done.size(), static_cast<std::size_t>(id) + 1), -1);
    return b;
  }

  sim::Simulator sim;
  OsConfig config;
  RecordingDevice* disks[2] = {nullptr, nullptr};
  std::unique_ptr<disk::Raid1> array;
  OsTask raid1d;
  Recorder recorder;
  std::vector<std::unique_ptr<Bio>> bios;
  std::unique_ptr<MdRaid1> md;
};

sim::Process writeback(BlockDevice& dev, std::vector<Bio*> bios) {
  for (Bio* b : bios) co_await dev.submit_bio(*b, nullptr);
}

sim::Process wal_write(sim::Simulator& sim, BlockDevice& dev, Bio& b) {
  co_await sim.sleep(sim::kMillisecond);
  co_await dev.submit_bio(b, nullptr);
}

// N async writeback bios (pid 2) at t = 0, then one sync WAL write (pid 3) at
// 1 ms; returns how many of the async ones completed before it.
int async_done_before_sync(MdLayering layering, int n, std::int64_t nr_requests) {
  Array a(legacy_cfq(nr_requests, layering), FakeDeviceConfig{.fixed = sim::kMillisecond},
          FakeDeviceConfig{.fixed = sim::kMillisecond});
  std::unique_ptr<BlockQueue> whole;  // "device": one queue above the array
  BlockDevice* dev = nullptr;
  if (layering == MdLayering::Raid1d) {
    a.start_md();
    dev = a.md.get();
  } else {
    whole = std::make_unique<BlockQueue>(a.sim, a.config, *a.array, a.config.scheduler, "md0");
    dev = whole.get();
  }
  std::vector<Bio*> async;
  for (int i = 0; i < n; ++i) async.push_back(&a.bio(i, disk::Op::Write, 1000000 + i * 4096, false, 2));
  Bio& wal = a.bio(n, disk::Op::Write, 64, true, 3);
  a.sim.spawn(writeback(*dev, async));
  a.sim.spawn(wal_write(a.sim, *dev, wal));
  a.sim.run_until(10 * sim::kSecond);
  const sim::Time wal_done = a.recorder.done[static_cast<std::size_t>(n)];
  REQUIRE(wal_done > 0);
  int before = 0;
  for (int i = 0; i < n; ++i) {
    REQUIRE(a.recorder.done[static_cast<std::size_t>(i)] > 0);
    before += a.recorder.done[static_cast<std::size_t>(i)] < wal_done ? 1 : 0;
  }
  if (layering == MdLayering::Raid1d) {
    // Every write reached the members from raid1d, the WAL write in raid1d's sync queue.
    for (const auto& s : a.disks[0]->seen) CHECK(s.pid == 1);
    CHECK(std::count_if(a.disks[0]->seen.begin(), a.disks[0]->seen.end(), [](const auto& s) { return s.sync; }) == 1);
  }
  return before;
}

}  // namespace

TEST_CASE(
    "md raid1d: a sync WAL write waits behind the writeback raid1d took before it; one queue lets CFQ serve it first") {
  constexpr int kAsync = 200;
  constexpr std::int64_t kPool = 8;
  // raid1d submits in arrival order and sleeps when a member's async pool is
  // full, so the WAL clone reaches the member after every async clone but at
  // most a pool's worth (which CFQ may still pass) plus the one at the disk.
  const int md_before = async_done_before_sync(MdLayering::Raid1d, kAsync, kPool);
  CHECK(md_before >= kAsync - kPool - 1);
  // One queue above the array: the WAL write takes a free sync request while
  // the writer sleeps for an async one, and CFQ serves it within the async
  // slice (40 ms at ~1 ms a write) instead of after 200 writes.
  const int device_before = async_done_before_sync(MdLayering::Device, kAsync, kPool);
  CHECK(device_before <= 50);
  MESSAGE("async writes completed before the WAL write: raid1d ", md_before, ", device ", device_before);
}

TEST_CASE("md raid1d: a writer sleeps in make_request at max_queued_requests until raid1d takes the pending list") {
  OsConfig c = legacy_cfq(1, MdLayering::Raid1d);  // one request per pool: raid1d sleeps at once
  c.md_max_queued_requests = 4;                    // clones: two bios on two members
  Array a(c, FakeDeviceConfig{.fixed = sim::kMillisecond}, FakeDeviceConfig{.fixed = sim::kMillisecond});
  a.start_md();
  OsTask writer;
  writer.pid = 2;
  writer.io_layers = sim::StateClock<IoLayer>(a.sim, IoLayer::None);
  std::vector<Bio*> bios;
  for (int i = 0; i < 5; ++i) bios.push_back(&a.bio(i, disk::Op::Write, 100000 * (i + 1), false, 2));
  std::vector<int> pending_after;
  std::vector<sim::Time> returned_at;
  a.sim.spawn([](MdRaid1& md, OsTask& w, std::vector<Bio*> bs, std::vector<int>& pending, std::vector<sim::Time>& at,
                 sim::Simulator& sim) -> sim::Process {
    for (Bio* b : bs) {
      co_await md.submit_bio(*b, nullptr, &w.io_layers);
      pending.push_back(md.pending_count());
      at.push_back(sim.now());
    }
  }(*a.md, writer, bios, pending_after, returned_at, a.sim));
  // Half a millisecond in: bios 3 and 4 are pending (4 clones), bio 5's writer sleeps.
  a.sim.run_until(sim::kMillisecond / 2);
  CHECK(a.md->pending_count() == 4);
  CHECK(a.md->writers_waiting() == 1);
  CHECK(a.md->write_congested());
  a.sim.run_until(sim::kSecond);
  // Bio 3 found 4 clones pending at t = 0 and slept until raid1d took them
  // (pending_count = 0 at once, flush_pending_writes), bio 5 likewise later.
  CHECK(pending_after == std::vector<int>{2, 4, 2, 4, 2});
  REQUIRE(returned_at.size() == 5);
  CHECK(returned_at[3] == 0);
  CHECK(returned_at[4] > 0);
  CHECK(writer.io_layers.total(IoLayer::RequestSlot) == returned_at[4]);
  CHECK(a.md->pending_count() == 0);
  CHECK(a.md->writers_waiting() == 0);
  CHECK_FALSE(a.md->write_congested());
}

TEST_CASE("md raid1d: reads go to the member read_balance picks, submitted with the reader's pid") {
  Array a(legacy_cfq(128, MdLayering::Raid1d));
  a.start_md();
  constexpr std::int64_t kStart = 5000;
  Bio& write = a.bio(0, disk::Op::Write, kStart, false, 2);      // both members' heads at kStart + 16
  Bio& first = a.bio(1, disk::Op::Read, kStart + 16, true, 7);   // sequential on both: member 0
  Bio& second = a.bio(2, disk::Op::Read, kStart + 16, true, 7);  // member 1 still ends there
  a.sim.spawn([](MdRaid1& md, Bio& w, Bio& r1, Bio& r2, sim::Simulator& sim) -> sim::Process {
    co_await md.submit_bio(w, nullptr);
    co_await sim.sleep(100 * sim::kMillisecond);
    co_await md.submit_bio(r1, nullptr);
    co_await md.submit_bio(r2, nullptr);
  }(*a.md, write, first, second, a.sim));
  a.sim.run_until(sim::kSecond);
  CHECK(a.md->reads_sent(0) == 1);
  CHECK(a.md->reads_sent(1) == 1);
  for (int m = 0; m < 2; ++m) {
    const auto& seen = a.disks[m]->seen;
    REQUIRE(seen.size() == 2);  // the write clone and one read
    CHECK(seen[0].op == disk::Op::Write);
    CHECK(seen[0].pid == a.md->raid1d_pid());
    CHECK(seen[1].op == disk::Op::Read);
    CHECK(seen[1].pid == 7);
    CHECK(seen[1].sector == kStart + 16);
  }
  CHECK(a.recorder.done[1] > 0);
  CHECK(a.recorder.done[2] > 0);
}

TEST_CASE("md raid1d: a write completes when the slower member's clone does") {
  Array a(legacy_cfq(128, MdLayering::Raid1d), FakeDeviceConfig{.fixed = sim::kMillisecond},
          FakeDeviceConfig{.fixed = 10 * sim::kMillisecond});
  a.start_md();
  Bio& write = a.bio(0, disk::Op::Write, 4096, true, 2);
  a.sim.spawn([](MdRaid1& md, Bio& w) -> sim::Process { co_await md.submit_bio(w, nullptr); }(*a.md, write));
  a.sim.run_until(sim::kSecond);
  const sim::Time fast = a.disks[0]->completed(4096);
  const sim::Time slow = a.disks[1]->completed(4096);
  REQUIRE(fast > 0);
  CHECK(slow > fast);
  CHECK(a.recorder.done[0] == slow);
  CHECK(a.md->sectors_written() == 16);      // once per array write
  CHECK(a.md->stats().write_sectors == 16);  // iostat: the first member
}

TEST_CASE("md raid1d under the kernel: fsync writes through raid1d, flushes both members, counts sectors once") {
  sim::Simulator sim;
  OsConfig c = legacy_cfq(128, MdLayering::Raid1d);
  const FakeDeviceConfig disk{.volatile_cache = true, .fixed = sim::kMillisecond};
  std::vector<std::unique_ptr<disk::Device>> members;
  members.push_back(std::make_unique<RecordingDevice>(sim, disk));
  members.push_back(std::make_unique<RecordingDevice>(sim, disk));
  RecordingDevice* disks[2] = {static_cast<RecordingDevice*>(members[0].get()),
                               static_cast<RecordingDevice*>(members[1].get())};
  disk::Raid1 array(sim, std::move(members));
  Kernel kernel(sim, c, Memory{1 * sim::kGiB, 0}, array, nullptr, 1);
  MdRaid1* md = kernel.devices().md(Volume::Data);
  REQUIRE(md != nullptr);
  OsTask& backend = kernel.new_task("backend");
  CHECK(md->raid1d_pid() == 1);  // the kernel's md0_raid1d task came first, then jbd2's kjournald2
  CHECK(backend.pid == 3);
  const FileId f = kernel.create("rel", Volume::Data, 0, 1000);
  bool done = false;
  sim.spawn([](Kernel& k, OsTask& t, FileId file, bool& d) -> sim::Process {
    co_await k.write(t, file, 0, 100);
    co_await k.fsync(t, file);
    d = true;
  }(kernel, backend, f, done));
  sim.run_until(10 * sim::kSecond);
  REQUIRE(done);
  for (RecordingDevice* d : disks) {
    // Every write, data and journal, came from raid1d; each member flushed its cache.
    CHECK(std::all_of(d->seen.begin(), d->seen.end(), [&](const auto& s) { return s.pid == md->raid1d_pid(); }));
    CHECK(std::count_if(d->fake.log.begin(), d->fake.log.end(),
                        [](const disk::Command& cmd) { return cmd.op == disk::Op::Flush; }) >= 1);
    std::vector<disk::SectorRange> unflushed;
    d->fake.volatile_ranges(unflushed);
    CHECK(unflushed.empty());
  }
  const std::int64_t journal = (c.journal_commit_bytes + 4096) / 512;
  CHECK(md->sectors_written() == 100 * kSectorsPerBlock + journal);
  std::string why;
  CHECK_MESSAGE(kernel.check_accounting(&why), why);
}
