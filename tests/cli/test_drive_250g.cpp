// The 250 GB drive of the E1 host (scenarios/presets/device/hdd-7200-sata-250g.json,
// Hitachi Deskstar T7K250 figures) against the 1 TB one: the geometry its
// datasheet figures give, and what that geometry does to devbench's drains
// (docs/DEVICES.md). Loaded through the scenario loader, as a run gets it.
#include <doctest/doctest.h>

#include "cli/commands/devbench.h"
#include "models/disk/hdd_geometry.h"
#include "models/disk/make_device.h"
#include "models/os/block_queue.h"
#include "models/os/drain_bench.h"
#include "scenarios/scenario.h"

using namespace ckptsim;

namespace {

scenarios::Scenario with_device(const std::string& preset) {
  const nlohmann::json doc = {{"hardware", {{"device", preset}}}};
  return scenarios::load_plan(scenarios::json(doc)).points.at(0).scenario;
}

double drain(const scenarios::Scenario& sc, std::int64_t stride, bool ascending) {
  sim::Simulator sim;
  auto device = disk::make_device(sim, sc.device, sc.seed, "data");
  os::BlockQueue queue(sim, sc.os, *device, sc.os.scheduler, "data");
  return os::run_drain_job(sim, queue, {.name = "drain", .stride = stride, .ascending = ascending}, sc.seed)
      .writes_per_s;
}

double random_writes_qd32(const scenarios::Scenario& sc) {
  for (const os::DirectJob& job : cli::devbench_jobs()) {
    if (job.name != "randwrite-qd32") continue;
    sim::Simulator sim;
    auto device = disk::make_device(sim, sc.device, sc.seed, "data");
    os::BlockQueue queue(sim, sc.os, *device, sc.os.scheduler, "data");
    return os::run_direct_job(sim, queue, job, sc.seed).iops;
  }
  FAIL("no devbench job randwrite-qd32");
  return 0;
}

}  // namespace

TEST_CASE("hdd-7200-sata-250g: the T7K250's figures give 0.63 MB outer tracks and its 67.8 MB/s sustained read") {
  const disk::DeviceConfig c = with_device("hdd-7200-sata-250g").device;
  const disk::HddGeometry g(c);
  const double track_bytes = g.media_rate(0) * g.revolution() / sim::kSecond;
  MESSAGE("outer track ", track_bytes, " B, sustained ", g.sustained_rate(0), " B/s, tracks ", g.tracks());
  // A 200-250 GB drive of the time: 0.6-0.9 MB per track at the outer zone (the 1 TB drive: 1.31 MB).
  CHECK(track_bytes >= 0.6e6);
  CHECK(track_bytes <= 0.9e6);
  // The media rates were derived from the datasheet's sustained rates through the head switch:
  // the model's sustained rate gives them back, zone 0 at 67.8 MB/s and the innermost at 32.9.
  CHECK(g.sustained_rate(0) == doctest::Approx(67.8e6).epsilon(0.005));
  const auto last = static_cast<std::int64_t>(g.tracks()) - 1;
  CHECK(g.media_rate(last) * g.revolution() / (g.revolution() + static_cast<double>(c.hdd.head_switch)) ==
        doctest::Approx(32.9e6).epsilon(0.01));
  // cylinders = tracks from capacity / surfaces: the seek curve spans the same stroke.
  CHECK(g.tracks() / static_cast<double>(c.hdd.surfaces) ==
        doctest::Approx(static_cast<double>(c.hdd.cylinders)).epsilon(0.01));
}

TEST_CASE("hdd-7200-sata-250g drains sparse ascending sweeps slower than the 1 TB drive, random ones about as fast") {
  const scenarios::Scenario small = with_device("hdd-7200-sata-250g");
  const scenarios::Scenario large = with_device("hdd-7200-sata");
  const double a100 = drain(small, 100, true), a7 = drain(small, 7, true);
  const double big_a100 = drain(large, 100, true), big_a7 = drain(large, 7, true);
  const double r7 = drain(small, 7, false), big_r7 = drain(large, 7, false);
  const double rw = random_writes_qd32(small), big_rw = random_writes_qd32(large);
  MESSAGE("250g: 1/100 ", a100, ", 1/7 ", a7, ", random 1/7 ", r7, ", randwrite-qd32 ", rw, "; 1 TB: ", big_a100, ", ",
          big_a7, ", ", big_r7, ", ", big_rw);
  CHECK(a100 < big_a100);
  // 1/7: 11 writes per 0.63 MB track, a revolution and a head switch per track (9.33 ms): 1180 w/s
  // at most, about half the 1 TB drive's 2510; at least 3/4 of it.
  CHECK(a7 <= 1185);
  CHECK(a7 >= 0.75 * 1185);
  CHECK(a7 < 0.6 * big_a7);
  // Random order pays a positioning per write on either drive: within 15 % of each other.
  CHECK(r7 == doctest::Approx(big_r7).epsilon(0.15));
  CHECK(rw == doctest::Approx(big_rw).epsilon(0.15));
}
