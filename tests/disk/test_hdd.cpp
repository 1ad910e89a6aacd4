// tests/disk/test_hdd.cpp
//
// The HDD model against the calibration targets of docs/reference/os-disk-model.md 4.7,
// driven by the raw-device fio (no block layer).
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <vector>

#include "models/disk/fio.h"
#include "models/disk/hdd.h"
#include "sim/random.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

FioResult fio_on(const DeviceConfig& config, const FioJob& job) {
  sim::Simulator sim;
  Hdd hdd(sim, config, 1, "sda");
  return run_fio(sim, hdd, job);
}

FioJob random_reads(int queue_depth, double span = 1.0) {
  FioJob job;
  job.name = "randread";
  job.queue_depth = queue_depth;
  job.span = span;
  job.duration = 20 * sim::kSecond;
  return job;
}

}  // namespace

TEST_CASE("hdd-7200-sata: random 8 kB reads over the full span at QD1 give 75-80 IOPS (reference band 70-150)") {
  const FioResult r = fio_on(testing::preset("hdd-7200-sata"), random_reads(1));
  MESSAGE("hdd-7200-sata randread QD1: ", r.iops, " IOPS, p50 ", r.lat_p50_ms, " ms");
  // Reference target 75-80 (t_cmd 0.15 + seek 8.5 + half a turn 4.17 + 0.05 ms transfer ~ 12.9 ms).
  CHECK(r.iops >= 75);
  CHECK(r.iops <= 80);
}

TEST_CASE("hdd-7200-sata: SPTF over 32 queued reads gives 2-3x the QD1 rate") {
  const DeviceConfig c = testing::preset("hdd-7200-sata");
  const FioResult qd1 = fio_on(c, random_reads(1));
  const FioResult qd32 = fio_on(c, random_reads(32));
  MESSAGE("hdd-7200-sata randread QD32: ", qd32.iops, " IOPS (", qd32.iops / qd1.iops, "x QD1)");
  CHECK(qd32.iops >= 2.0 * qd1.iops);
  CHECK(qd32.iops <= 3.0 * qd1.iops);
  CHECK(qd32.iops >= 180);  // reference 180-220
  CHECK(qd32.iops <= 220);
}

TEST_CASE("hdd-7200-sata: a 5 % span cuts seeks: QD1 130-160 IOPS, QD32 300-450") {
  // Reference 130-150 and 300-400; the model's short seeks run slightly above.
  const DeviceConfig c = testing::preset("hdd-7200-sata");
  const FioResult qd1 = fio_on(c, random_reads(1, 0.05));
  const FioResult qd32 = fio_on(c, random_reads(32, 0.05));
  MESSAGE("hdd-7200-sata 5% span: QD1 ", qd1.iops, ", QD32 ", qd32.iops, " IOPS");
  CHECK(qd1.iops >= 130);
  CHECK(qd1.iops <= 160);
  CHECK(qd32.iops >= 300);
  CHECK(qd32.iops <= 450);
}

TEST_CASE("an aging bound of ~0 turns SPTF into FCFS: QD32 no faster than QD1") {
  DeviceConfig c = testing::preset("hdd-7200-sata");
  c.hdd.aging = 1;  // every eligible command is overdue: served in arrival order
  const FioResult qd1 = fio_on(c, random_reads(1));
  const FioResult qd32 = fio_on(c, random_reads(32));
  // Only the command overhead overlaps with a deep queue (~1 %).
  CHECK(qd32.iops == doctest::Approx(qd1.iops).epsilon(0.05));
}

TEST_CASE("hdd-7200-sata: sequential 512 kB reads at the outer zone stream at >= 100 MB/s") {
  FioJob job;
  job.random = false;
  job.block_size = 512 * sim::kKiB;
  job.span = 0.01;
  job.duration = 5 * sim::kSecond;
  const FioResult r = fio_on(testing::preset("hdd-7200-sata"), job);
  MESSAGE("hdd-7200-sata seqread 512k QD1: ", r.mb_per_s, " MB/s");
  // Media 150 MiB/s less a head switch per 1.3 MB track: ~140 MB/s (reference 140-150).
  CHECK(r.mb_per_s >= 130);
  CHECK(r.mb_per_s <= 160);
}

TEST_CASE("the inner zone streams at about half the outer rate (rho = 0.5)") {
  FioJob job;
  job.random = false;
  job.block_size = 512 * sim::kKiB;
  job.offset = 0.99;
  job.span = 0.01;
  job.duration = 5 * sim::kSecond;
  const FioResult r = fio_on(testing::preset("hdd-7200-sata"), job);
  CHECK(r.mb_per_s >= 65);  // reference 70-80 MB/s
  CHECK(r.mb_per_s <= 80);
}

TEST_CASE("the rotational wait to a random sector averages half a revolution") {
  sim::Simulator sim;
  const DeviceConfig c = testing::preset("hdd-7200-sata");
  Hdd hdd(sim, c, 1, "sda");
  sim::Random random(3, "angles");
  double sum = 0;
  constexpr int kSamples = 100000;
  for (int i = 0; i < kSamples; ++i) {
    const std::int64_t byte = random.uniform_int(0, c.capacity / 512 - 1) * 512;
    sum += static_cast<double>(hdd.rotational_wait(byte, random.uniform_int(0, sim::kHour)));
  }
  const double revolution = 60.0 * sim::kSecond / 7200;
  CHECK(sum / kSamples == doctest::Approx(revolution / 2).epsilon(0.01));
}

TEST_CASE("hdd-15k-sas: random 8 kB reads at QD1 give 170-185 IOPS, QD32 400-500") {
  const DeviceConfig c = testing::preset("hdd-15k-sas");
  const FioResult qd1 = fio_on(c, random_reads(1));
  const FioResult qd32 = fio_on(c, random_reads(32));
  MESSAGE("hdd-15k-sas randread: QD1 ", qd1.iops, ", QD32 ", qd32.iops, " IOPS");
  CHECK(qd1.iops >= 170);
  CHECK(qd1.iops <= 185);
  CHECK(qd32.iops >= 400);
  CHECK(qd32.iops <= 500);
}

TEST_CASE("write cache: writes complete at link speed until it is full, then at the destage rate") {
  FioJob job;
  job.write = true;
  job.count = 600;
  const DeviceConfig c = testing::preset("hdd-7200-sata");
  const FioResult r = fio_on(c, job);
  // The first ones fit in the free extents: t_cmd + 8 kB at 300 MiB/s = 0.18
  // ms each (the drive destages a few meanwhile).
  for (std::int64_t i = 0; i < c.hdd.write_cache_extents; ++i) {
    CHECK(r.latencies[static_cast<std::size_t>(i)] < 200 * sim::kMicrosecond);
  }
  // Full: each write waits for one destage, an SPTF pick among ~100 scattered
  // extents (seek + rotation of a few ms, well under QD1's 12.9 ms).
  double late = 0;
  for (std::size_t i = 400; i < 600; ++i) late += sim::to_millis(r.latencies[i]);
  late /= 200;
  MESSAGE("hdd-7200-sata write latency with a full cache: ", late, " ms");
  CHECK(late >= 2.0);
  CHECK(late <= 8.0);
}

TEST_CASE("a FLUSH with a full write cache takes 0.1-0.6 s and leaves nothing dirty") {
  sim::Simulator sim;
  Hdd hdd(sim, testing::preset("hdd-7200-sata"), 1, "sda");
  testing::Sink owner;
  std::vector<Command> writes(static_cast<std::size_t>(testing::preset("hdd-7200-sata").hdd.write_cache_extents));
  sim::Random random(5, "scatter");
  // As many scattered 8 kB writes as the cache has extents, one at a time
  // (QD1), then a FLUSH: E_max destages in SPTF order, 3-6 ms each.
  std::size_t next = 0;
  struct Driver final : CommandOwner {
    std::function<void()> on_done;
    void command_completed(Command&) override { on_done(); }
  } driver;
  Command flush;
  flush.op = Op::Flush;
  flush.owner = &owner;
  sim::Time flush_start = 0;
  driver.on_done = [&] {
    if (next < writes.size()) {
      Command& w = writes[next++];
      w.op = Op::Write;
      w.bytes = 8 * sim::kKiB;
      w.sector = random.uniform_int(0, 1000000000LL / 8) * 16;
      w.owner = &driver;
      hdd.submit(w);
    } else if (flush_start == 0) {
      flush_start = sim.now();
      REQUIRE(hdd.can_accept(Op::Flush));  // SATA: only an idle queue takes it
      hdd.submit(flush);
    }
  };
  driver.on_done();
  sim.run();
  REQUIRE(owner.done.size() == 1);
  const double seconds = sim::to_seconds(owner.done[0]->device_end - flush_start);
  MESSAGE("flush of a full 7200 rpm write cache: ", seconds, " s");
  CHECK(seconds >= 0.1);
  CHECK(seconds <= 0.6);
  CHECK(hdd.dirty_bytes() == 0);
}

TEST_CASE("SATA: a FLUSH waits for an empty queue and blocks it; SAS queues it") {
  sim::Simulator sim;
  Hdd sata(sim, testing::preset("hdd-7200-sata"), 1, "sda");
  testing::Sink owner;
  Command read, flush;
  read.op = Op::Read;
  read.bytes = 8192;
  read.owner = &owner;
  flush.op = Op::Flush;
  flush.owner = &owner;
  sata.submit(read);
  CHECK_FALSE(sata.can_accept(Op::Flush));
  sim.run();
  CHECK(sata.can_accept(Op::Flush));
  sata.submit(flush);
  CHECK_FALSE(sata.can_accept(Op::Read));
  sim.run();
  CHECK(sata.can_accept(Op::Read));

  Hdd sas(sim, testing::preset("hdd-15k-sas"), 1, "sdb");
  CHECK(sas.info().queued_flush);
  CHECK_FALSE(sas.info().volatile_cache);
  sas.submit(read);
  CHECK(sas.can_accept(Op::Flush));
}
