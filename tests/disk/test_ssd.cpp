// tests/disk/test_ssd.cpp
//
// The SSD model against the datasheet figures of docs/reference/os-disk-model.md 5.5.
#include <doctest/doctest.h>

#include <vector>

#include "models/disk/fio.h"
#include "models/disk/ssd.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

FioResult fio_on(const DeviceConfig& config, const FioJob& job) {
  sim::Simulator sim;
  Ssd ssd(sim, config, 1, "nvme0n1");
  return run_fio(sim, ssd, job);
}

FioJob job(bool write, sim::Bytes block, int queue_depth) {
  FioJob j;
  j.write = write;
  j.block_size = block;
  j.queue_depth = queue_depth;
  j.duration = 500 * sim::kMillisecond;
  return j;
}

}  // namespace

TEST_CASE("QD1 random 4 kB read latency lies in the datasheet band") {
  // ssd-sata (S4500 class) ~100-110 us, nvme (P4500 class) 80-115 us; a few
  // microseconds of slack for the host side not in the datasheets.
  const FioResult sata = fio_on(testing::preset("ssd-sata"), job(false, 4 * sim::kKiB, 1));
  const FioResult nvme = fio_on(testing::preset("nvme"), job(false, 4 * sim::kKiB, 1));
  MESSAGE("QD1 4k read p50: ssd-sata ", sata.lat_p50_ms * 1000, " us, nvme ", nvme.lat_p50_ms * 1000, " us");
  CHECK(sata.lat_p50_ms >= 0.095);
  CHECK(sata.lat_p50_ms <= 0.120);
  CHECK(nvme.lat_p50_ms >= 0.080);
  CHECK(nvme.lat_p50_ms <= 0.115);
}

TEST_CASE("nvme: random 8 kB reads at QD32 reach at least 100k IOPS") {
  const FioResult r = fio_on(testing::preset("nvme"), job(false, 8 * sim::kKiB, 32));
  MESSAGE("nvme randread 8k QD32: ", r.iops, " IOPS");
  CHECK(r.iops >= 100000);
  CHECK(r.iops <= 400000);  // 32 outstanding over >= 80 us each
}

TEST_CASE("ssd-sata: QD32 random reads are bounded by the SATA link and the controller") {
  const DeviceConfig c = testing::preset("ssd-sata");
  const FioResult r8 = fio_on(c, job(false, 8 * sim::kKiB, 32));
  const FioResult r4 = fio_on(c, job(false, 4 * sim::kKiB, 32));
  MESSAGE("ssd-sata randread QD32: 8k ", r8.iops, ", 4k ", r4.iops, " IOPS");
  // 8 kB: datasheet ~48k; the model is link bound (550 MiB/s / 8 kB = 70k): band 45k-72k.
  CHECK(r8.iops >= 45000);
  CHECK(r8.iops <= 72000);
  // 4 kB: datasheet ~72k; the controller's 90k commands/s cap binds: +-25 %.
  CHECK(r4.iops >= 72000 * 0.75);
  CHECK(r4.iops <= 72000 * 1.25);
}

TEST_CASE("steady-state random 4 kB writes run at the GC-limited rate of the datasheets") {
  // After the write buffer fills, each stripe costs WA programs on its unit:
  // ssd-sata WA 3.2 -> ~66k, nvme WA 5 (10 % OP) -> ~60k; datasheets
  // 33k-65k and 30k-62k.
  for (const std::string name : {"ssd-sata", "nvme"}) {
    CAPTURE(name);
    FioJob j = job(true, 4 * sim::kKiB, 32);
    j.ramp = 2 * sim::kSecond;  // 256 MiB of buffer fills in about a second
    j.duration = 1 * sim::kSecond;
    const FioResult r = fio_on(testing::preset(name), j);
    MESSAGE(name, " steady randwrite 4k QD32: ", r.iops, " IOPS");
    CHECK(r.iops >= 30000);
    CHECK(r.iops <= 66000);
  }
}

TEST_CASE("sequential writes do not amplify: they run at the raw program rate") {
  FioJob j = job(true, 128 * sim::kKiB, 4);
  j.random = false;
  j.ramp = 1 * sim::kSecond;
  j.duration = 1 * sim::kSecond;
  const FioResult seq = fio_on(testing::preset("ssd-sata"), j);
  // Raw program bandwidth 32 units x 32 kB / 1.2 ms ~ 870 MB/s, above the
  // 550 MiB/s link: the link binds.
  CHECK(seq.mb_per_s >= 500);
  CHECK(seq.mb_per_s <= 580);
}

TEST_CASE("flush: free with power-loss protection, programs the buffer without it") {
  for (bool plp : {true, false}) {
    CAPTURE(plp);
    sim::Simulator sim;
    DeviceConfig c = testing::preset("ssd-sata");
    c.ssd.power_loss_protection = plp;
    Ssd ssd(sim, c, 1, "sda");
    CHECK(ssd.info().volatile_cache == !plp);
    testing::Sink owner;
    Command write, flush;
    write.op = Op::Write;
    write.bytes = 8 * sim::kKiB;  // less than a stripe: stays in the buffer
    write.owner = &owner;
    flush.op = Op::Flush;
    flush.owner = &owner;
    ssd.submit(write);
    sim.run();
    const sim::Time start = sim.now();
    ssd.submit(flush);
    sim.run();
    const sim::Duration took = flush.device_end - start;
    if (plp) {
      CHECK(took == c.ssd.host_overhead);
    } else {
      // The partial stripe's program, slowed by GC as a random write, then the metadata.
      const double gc_program = ssd.write_amplification() * static_cast<double>(c.ssd.program_time + c.ssd.read_time) +
                                static_cast<double>(c.ssd.flush_overhead + 100 * sim::kMicrosecond);
      CHECK(took >= c.ssd.program_time + c.ssd.flush_overhead);
      CHECK(static_cast<double>(took) <= gc_program);
    }
  }
}
