// tests/disk/test_raid1.cpp
//
// md RAID1 over two hdd-7200-sata members (docs/reference/os-disk-model.md section 6 and
// check 8.4.7): writes cost one member, reads spread over both.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "models/disk/fio.h"
#include "models/disk/hdd.h"
#include "models/disk/make_device.h"
#include "models/disk/raid1.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

FioResult fio_on(const char* preset, const FioJob& job) {
  sim::Simulator sim;
  auto device = make_device(sim, testing::preset(preset), 1, "md0");
  return run_fio(sim, *device, job);
}

FioJob random(bool write, int queue_depth) {
  FioJob j;
  j.write = write;
  j.queue_depth = queue_depth;
  j.duration = 20 * sim::kSecond;
  j.ramp = write ? 5 * sim::kSecond : 0;  // past the members' write caches
  return j;
}

}  // namespace

TEST_CASE("raid1: random write IOPS are those of one member") {
  const FioResult one = fio_on("hdd-7200-sata", random(true, 32));
  const FioResult md = fio_on("raid1-hdd-7200", random(true, 32));
  MESSAGE("randwrite QD32: one disk ", one.iops, ", raid1 ", md.iops, " IOPS");
  // Each write waits for the slower of two independent disks: a little below one.
  CHECK(md.iops <= 1.02 * one.iops);
  CHECK(md.iops >= 0.80 * one.iops);
}

TEST_CASE("raid1: random reads at QD >= 2 reach 1.5-2x one member") {
  for (int qd : {4, 32}) {
    CAPTURE(qd);
    const FioResult one = fio_on("hdd-7200-sata", random(false, qd));
    const FioResult md = fio_on("raid1-hdd-7200", random(false, qd));
    MESSAGE("randread QD", qd, ": one disk ", one.iops, ", raid1 ", md.iops, " IOPS (", md.iops / one.iops, "x)");
    CHECK(md.iops >= 1.5 * one.iops);
    CHECK(md.iops <= 2.0 * one.iops);
  }
}

TEST_CASE("raid1: a sequential read stream sticks to one member") {
  sim::Simulator sim;
  auto device = make_device(sim, testing::preset("raid1-hdd-7200"), 1, "md0");
  auto& md = dynamic_cast<Raid1&>(*device);
  FioJob j;
  j.random = false;
  j.count = 500;
  j.offset = 0.5;
  j.span = 0.01;
  run_fio(sim, md, j);
  // The first read goes to the nearer member; every later one starts where it ended.
  CHECK(md.reads_sent(0) + md.reads_sent(1) == 500);
  CHECK((md.reads_sent(0) == 500 || md.reads_sent(1) == 500));
}

TEST_CASE("raid1: a FLUSH goes to both members and ends when both caches are clean") {
  sim::Simulator sim;
  auto device = make_device(sim, testing::preset("raid1-hdd-7200"), 1, "md0");
  auto& md = dynamic_cast<Raid1&>(*device);
  CHECK(md.info().queue_depth == 31);
  CHECK_FALSE(md.info().queued_flush);
  FioJob j;
  j.write = true;
  j.count = 64;
  j.queue_depth = 8;
  run_fio(sim, md, j);
  auto& a = dynamic_cast<Hdd&>(md.member(0));
  auto& b = dynamic_cast<Hdd&>(md.member(1));
  REQUIRE(a.dirty_bytes() + b.dirty_bytes() == 0);  // idle drives destage on their own
  testing::Sink owner;
  // Dirty both caches again, then flush.
  Command flush;
  flush.op = Op::Flush;
  flush.owner = &owner;
  std::vector<Command> writes(31);
  testing::Sink sink;
  for (std::size_t i = 0; i < writes.size(); ++i) {
    writes[i].op = Op::Write;
    writes[i].bytes = 8192;
    writes[i].sector = static_cast<std::int64_t>(i) * 40000000;
    writes[i].owner = &sink;
    md.submit(writes[i]);
  }
  sim.run_until(sim.now() + 10 * sim::kMillisecond);  // accepted by both caches, few destaged yet
  CHECK(a.dirty_bytes() > 0);
  CHECK(b.dirty_bytes() > 0);
  REQUIRE(md.can_accept(Op::Flush));
  md.submit(flush);
  sim.run();
  CHECK(owner.done.size() == 1);
  CHECK(a.dirty_bytes() == 0);
  CHECK(b.dirty_bytes() == 0);
}
