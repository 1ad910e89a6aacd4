// tests/disk/test_throttled_volume.cpp
//
// Cloud block volumes: the provider's operation count (AWS EBS "I/O
// characteristics and monitoring"), the IOPS and throughput caps of gp3, the
// gp2 burst bucket, and an instance's limits in front of a volume.
#include <doctest/doctest.h>

#include <memory>

#include "models/disk/fio.h"
#include "models/disk/make_device.h"
#include "models/disk/throttled_volume.h"
#include "models/disk/volume_operations.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

VolumeReport report_of(Device& device) { return dynamic_cast<ThrottledVolume&>(device).report(); }

Command write_at(std::int64_t sector, std::int64_t bytes) { return testing::write_command(sector, bytes); }

// fio --rw=randwrite --iodepth=32 --ramp_time=1 --runtime=`seconds`.
FioJob randwrite_qd32(sim::Bytes block_size, int seconds) {
  FioJob j;
  j.write = true;
  j.block_size = block_size;
  j.queue_depth = 32;
  j.ramp = sim::kSecond;
  j.duration = seconds * sim::kSecond;
  return j;
}

}  // namespace

TEST_CASE("EBS operation count: 1,024 KiB is 4, 8 sequential 32 KiB are 1, 8 random ones 8") {
  VolumeOperations ssd(kSsdVolumeOperation);
  CHECK(ssd.count(write_at(0, 1024 * sim::kKiB)) == 4);

  VolumeOperations sequential(kSsdVolumeOperation);
  std::int64_t operations = 0;
  for (std::int64_t i = 0; i < 8; ++i) operations += sequential.count(write_at(1000 + i * 64, 32 * sim::kKiB));
  CHECK(operations == 1);

  VolumeOperations random(kSsdVolumeOperation);
  operations = 0;
  for (std::int64_t i = 0; i < 8; ++i) operations += random.count(write_at(1000 + i * 1000, 32 * sim::kKiB));
  CHECK(operations == 8);

  // An HDD-backed volume (st1, sc1) counts up to 1 MiB as one.
  VolumeOperations hdd(kHddVolumeOperation);
  CHECK(hdd.count(write_at(0, 1024 * sim::kKiB)) == 1);
  CHECK(hdd.count(write_at(2048, 1025 * sim::kKiB)) == 2);
}

TEST_CASE("EBS operation count: a read after a write at its end sector opens a new operation") {
  VolumeOperations ops(kSsdVolumeOperation);
  CHECK(ops.count(write_at(0, 8 * sim::kKiB)) == 1);
  Command read = write_at(16, 8 * sim::kKiB);
  read.op = Op::Read;
  CHECK(ops.count(read) == 1);
}

TEST_CASE("gp3: 64 sequential 8 kB writes count as 2 operations, a 1 MiB write as 4") {
  sim::Simulator sim;
  auto volume = make_device(sim, testing::preset("ebs-gp3"), 1, "xvdf");
  FioJob seq;
  seq.random = false;
  seq.write = true;
  seq.block_size = 8 * sim::kKiB;
  seq.queue_depth = 1;
  seq.count = 64;
  REQUIRE(run_fio(sim, *volume, seq).ios == 64);
  CHECK(report_of(*volume).operations == 2);  // 512 KiB in 256 KiB operations

  sim::Simulator sim2;
  auto fresh = make_device(sim2, testing::preset("ebs-gp3"), 1, "xvdf");
  FioJob big;
  big.write = true;
  big.block_size = sim::kMiB;
  big.count = 1;
  REQUIRE(run_fio(sim2, *fresh, big).ios == 1);
  CHECK(report_of(*fresh).operations == 4);
  CHECK(report_of(*fresh).bytes == sim::kMiB);
}

TEST_CASE("gp3: 4k random writes at QD32 reach 3,000 IOPS and no more") {
  sim::Simulator sim;
  const DeviceConfig gp3 = testing::preset("ebs-gp3");
  auto volume = make_device(sim, gp3, 1, "xvdf");
  FioJob j = randwrite_qd32(4 * sim::kKiB, 20);
  const FioResult r = run_fio(sim, *volume, j);
  MESSAGE("gp3 4k randwrite qd32: ", r.iops, " IOPS, p50 ", r.lat_p50_ms, " ms");
  // The pacing clock lets no more through than 3,000 a second and the 10 ms
  // of tolerance (30 operations, 1.5 IOPS over 20 s).
  CHECK(r.iops <= 3000.0 + 30.0 / 20);
  CHECK(r.iops >= 2995.0);  // fio's window leaves out the 32 still in flight at its end: 1.6 IOPS over 20 s
  // The queue waits in the volume: 32 in flight at 3,000/s is about 10.7 ms each.
  CHECK(r.lat_p50_ms == doctest::Approx(32.0 / 3000 * 1000).epsilon(0.05));
  CHECK(report_of(*volume).throttled > 19 * sim::kSecond);

  // At QD1 the cap is far: the round trip sets the pace.
  sim::Simulator sim1;
  auto idle = make_device(sim1, gp3, 1, "xvdf");
  j.queue_depth = 1;
  j.duration = 2 * sim::kSecond;
  const FioResult qd1 = run_fio(sim1, *idle, j);
  CHECK(qd1.lat_p50_ms > sim::to_millis(gp3.volume.latency));
  CHECK(qd1.lat_p50_ms < sim::to_millis(gp3.volume.latency) + 0.2);  // the storage behind adds little
  CHECK(report_of(*idle).throttled == 0);
}

TEST_CASE("gp3: the 125 MiB/s cap holds 256 KiB writes at 500 per second") {
  sim::Simulator sim;
  auto volume = make_device(sim, testing::preset("ebs-gp3"), 1, "xvdf");
  const FioResult r = run_fio(sim, *volume, randwrite_qd32(256 * sim::kKiB, 10));
  // 1 %: fio's window leaves out the 32 in flight at its end (0.64 % of 5,000).
  CHECK(r.mb_per_s * 1e6 / sim::kMiB == doctest::Approx(125.0).epsilon(0.01));
  CHECK(r.mb_per_s * 1e6 / sim::kMiB <= 125.0 * 1.001);   // and the 10 ms tolerance
  CHECK(r.iops == doctest::Approx(500.0).epsilon(0.01));  // under 3,000 IOPS: bandwidth binds
}

TEST_CASE("gp2 100 GiB: 3,000 IOPS for 5.4 M / (3,000 - 300) = 2,000 s, then its 300 IOPS baseline") {
  sim::Simulator sim;
  auto volume = make_device(sim, testing::preset("ebs-gp2-100"), 1, "xvdf");
  FioJob j;
  j.write = true;
  j.block_size = 16 * sim::kKiB;
  j.queue_depth = 16;
  j.duration = 2600 * sim::kSecond;
  const FioResult saturated = run_fio(sim, *volume, j);
  // ios = 3,000 x burst + 300 x (2,600 - burst)
  const double burst_seconds = (static_cast<double>(saturated.ios) - 300.0 * 2600) / (3000.0 - 300.0);
  MESSAGE("gp2-100 burst lasted ", burst_seconds, " s");
  CHECK(burst_seconds == doctest::Approx(2000.0).epsilon(0.05));
  CHECK(report_of(*volume).burst_balance_pct < 0.01);

  j.duration = 100 * sim::kSecond;
  j.name = "after";
  const FioResult after = run_fio(sim, *volume, j);
  CHECK(after.iops == doctest::Approx(300.0).epsilon(0.01));
}

TEST_CASE("an instance's IOPS limit in front of a gp3 volume holds it at the instance's rate") {
  sim::Simulator sim;
  IoLimits instance({.iops = 1000}, sim.now());
  auto volume = make_device(sim, testing::preset("ebs-gp3"), 1, "xvdf", &instance);
  const double iops = run_fio(sim, *volume, randwrite_qd32(4 * sim::kKiB, 5)).iops;
  CHECK(iops <= 1000.0 + 10.0 / 5);                      // the 10 ms tolerance: 10 operations
  CHECK(iops == doctest::Approx(1000.0).epsilon(0.01));  // less the 32 in flight at the window's end
}

TEST_CASE("token bucket: bursting drains at burst minus refill and starts where told") {
  TokenBucket gp2({.baseline = 300, .burst = 3000, .credits = 5.4e6, .refill = 0, .start = 1.0}, 0);
  for (int i = 0; i < 3000; ++i) {
    const sim::Time t = gp2.earliest(0, 1);
    gp2.take(t, 1);
  }
  // 3,000 credits spent in one second, 300 back in it.
  CHECK(gp2.balance_pct(sim::kSecond) == doctest::Approx((5.4e6 - 2700) / 5.4e6 * 100));
  TokenBucket half({.baseline = 300, .burst = 3000, .credits = 5.4e6, .refill = 0, .start = 0.5}, 0);
  CHECK(half.balance_pct(0) == doctest::Approx(50.0));
  TokenBucket empty({.baseline = 300, .burst = 3000, .credits = 5.4e6, .refill = 0, .start = 0.0}, 0);
  CHECK(empty.earliest(0, 1) == sim::kSecond / 300 + 1);  // one credit at the refill rate (ns rounded up)
  TokenBucket flat({.baseline = 3000}, 0);
  CHECK(flat.balance_pct(0) == 100.0);  // no bucket: nothing to run out
}

TEST_CASE("token bucket: 10 ms of pacing tolerance lets 31 operations of a 3,000 IOPS cap go at once") {
  TokenBucket gp3({.baseline = 3000}, 0);
  int at_once = 0;
  while (gp3.earliest(0, 1) == 0) {
    gp3.take(0, 1);
    ++at_once;
  }
  CHECK(at_once == 31);  // the first, then 30 more within 10 ms of the clock
  CHECK(gp3.earliest(0, 1) == 31 * sim::kSecond / 3000 + 1 - kPacingTolerance);  // then one per 1/3,000 s
}
