// tests/os/test_drain.cpp
//
// The drain rate of a writeback sweep (models/os/drain_bench.h) on
// hdd-7200-sata: 8 kB async writes at 1/100, 1/33, 1/7 and 1/2 of the blocks
// of 2 GB, ascending and shuffled, through CFQ on linux-3.2, each ended by a
// cache flush.
#include <doctest/doctest.h>

#include "kernel_harness.h"
#include "models/disk/make_device.h"
#include "models/os/drain_bench.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::profile;

namespace {

// The preset's 100 extents (DeviceConfig's default is docs/reference/os-disk-model.md's 128).
disk::DeviceConfig drive() {
  disk::DeviceConfig c = testing::hdd_7200_sata();
  c.hdd.write_cache_extents = 100;
  return c;
}

double drain(const disk::DeviceConfig& device, std::int64_t stride, bool ascending) {
  const OsConfig os = profile("linux-3.2");
  sim::Simulator sim;
  auto dev = disk::make_device(sim, device, 1, "data");
  BlockQueue queue(sim, os, *dev, os.scheduler, "data");
  return run_drain_job(sim, queue, {.name = "drain", .stride = stride, .ascending = ascending}, 1).writes_per_s;
}

}  // namespace

TEST_CASE("hdd-7200-sata drains denser ascending sweeps faster, and shuffled ones slowest") {
  const auto c = drive();
  const double a100 = drain(c, 100, true), a33 = drain(c, 33, true), a7 = drain(c, 7, true), a2 = drain(c, 2, true);
  const double r100 = drain(c, 100, false), r33 = drain(c, 33, false), r7 = drain(c, 7, false), r2 = drain(c, 2, false);
  MESSAGE("ascending 1/100 ", a100, ", 1/33 ", a33, ", 1/7 ", a7, ", 1/2 ", a2, " w/s; shuffled ", r100, ", ", r33,
          ", ", r7, ", ", r2, " w/s");
  CHECK(a2 > a7);
  CHECK(a7 > a33);
  CHECK(a33 > a100);
  for (const double shuffled : {r100, r33, r7, r2}) CHECK(shuffled < a100);

  // The arithmetic of the outer zone (2 GB is the first ~400 of 200 000 cylinders): a track holds
  // 150 MiB/s x 8.33 ms = 1.31 MB; a track or head change costs t_hs 1 ms (+ t_ws 1 ms before a write).
  // 1/2: the drive takes each write at link speed, t_cmd 0.15 ms + 8 kB / 300 MiB/s = 0.176 ms, and
  // destages 80 per revolution, faster than that: the link is the bound, 5680 w/s.
  CHECK(a2 <= 5681);
  CHECK(a2 >= 0.95 * 5680);
  // 1/7: 56 kB per write, 23.4 per track, a revolution plus a head switch per track: 2510 w/s at
  // most; at least 3/4 of it (a revolution lost only when the next extent has not arrived yet).
  CHECK(a7 <= 2510);
  CHECK(a7 >= 0.75 * 2510);
  // 1/33: 264 kB per write, 4.85 per track: 520 w/s in strict order; positioning-first may switch to
  // another surface when that is sooner, but cannot beat the same-track gap of 1.68 ms (595 w/s).
  CHECK(a33 >= 0.95 * 520);
  CHECK(a33 <= 595);
  // 1/100 and shuffled: almost no two extents share a track, so a destage costs at least a head
  // switch, the write settle and the transfer (2.05 ms: 488 w/s). 1/100 in strict order waits
  // 800 kB of rotation (5.2 ms, 190 w/s), which choosing among 100 cached extents must beat;
  // shuffled ones beat a random pick in the span (seek t(400 cyl) 1.6 + settle 1 + half a turn 4.17
  // ms: 146 w/s).
  CHECK(a100 >= 190);
  CHECK(a100 <= 488);
  for (const double shuffled : {r100, r33, r7, r2}) {
    CHECK(shuffled >= 146);
    CHECK(shuffled <= 488);
  }
}

TEST_CASE("destage_order lba with a setup longer than the gap: the 1/2 sweep loses a revolution per write") {
  auto c = drive();
  c.hdd.destage_order = disk::DestageOrder::Lba;
  const double no_setup = drain(c, 2, true);
  // The next extent starts 8 kB (52 us of rotation) after the last one ends: a 0.1 ms setup misses it.
  c.hdd.command_setup = 100 * sim::kMicrosecond;
  const double with_setup = drain(c, 2, true);
  MESSAGE("lba, 1/2: ", no_setup, " w/s without setup, ", with_setup, " with 0.1 ms");
  CHECK(no_setup >= 4000);
  CHECK(with_setup <= 120);  // one write per 8.33 ms revolution at most
  CHECK(with_setup >= 100);
  // Positioning-first finds another extent on the track instead of waiting a full turn.
  c.hdd.destage_order = disk::DestageOrder::Positioning;
  CHECK(drain(c, 2, true) >= 10 * with_setup);
}

TEST_CASE("a destage window of 1 drains a sparse sweep in strict arrival order, at the rotation's pace") {
  auto c = drive();
  const double all = drain(c, 100, true);
  c.hdd.destage_window = 1;
  const double one = drain(c, 100, true);
  c.hdd.destage_window = 0;
  c.hdd.destage_order = disk::DestageOrder::Fifo;
  const double fifo = drain(c, 100, true);
  MESSAGE("1/100: window all ", all, ", window 1 ", one, ", fifo ", fifo, " w/s");
  CHECK(one == fifo);  // the same order, so the same timeline
  CHECK(one <= 195);   // 800 kB of rotation between neighbours (5.2 ms), plus the track changes
  CHECK(one >= 150);
  CHECK(all >= 2 * one);
}
