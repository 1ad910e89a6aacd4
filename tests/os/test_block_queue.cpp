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

OsConfig legacy(const std::string& scheduler) {
  OsConfig c;
  c.block_layer = "legacy";
  c.scheduler = scheduler;
  return c;
}

}  // namespace

TEST_CASE("contiguous bios of one plug merge into requests of at most max_sectors_kb") {
  sim::Simulator sim;
  FakeDevice dev(sim, FakeDeviceConfig{});
  OsConfig config = legacy("noop");
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
}
