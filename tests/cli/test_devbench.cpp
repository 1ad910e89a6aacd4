// `ckptsim devbench`'s jobs (cli/commands/devbench.h): a -qd1 job keeps one I/O
// outstanding, at the application as at the device.
#include <doctest/doctest.h>

#include "cli/commands/devbench.h"
#include "models/disk/make_device.h"
#include "models/os/block_queue.h"
#include "scenarios/scenario.h"

using namespace ckptsim;

namespace {

os::DirectJobResult run_job(const std::string& preset, const std::string& job_name) {
  const nlohmann::json doc = {{"hardware", {{"device", preset}}}};
  const scenarios::Scenario sc = scenarios::load_plan(doc, std::filesystem::current_path()).points.at(0).scenario;
  for (const os::DirectJob& job : cli::devbench_jobs()) {
    if (job.name != job_name) continue;
    sim::Simulator sim;
    auto device = disk::make_device(sim, sc.device, sc.seed, "data");
    os::BlockQueue queue(sim, sc.os, *device, sc.os.scheduler, "data");
    return os::run_direct_job(sim, queue, job, sc.seed);
  }
  FAIL("no devbench job " << job_name);
  return {};
}

}  // namespace

TEST_CASE("devbench seqread-qd1 runs at queue depth 1: one request at the device, one 8 kB read at a time") {
  for (const std::string preset : {"hdd-7200-sata", "ssd-sata", "nvme"}) {
    CAPTURE(preset);
    const os::DirectJobResult r = run_job(preset, "seqread-qd1");
    REQUIRE(r.ios > 0);
    CHECK(r.max_in_flight == 1);
    // Little's law: IOPS x mean latency is the mean number of reads
    // outstanding, at most 1 one at a time (64 before: a plugged batch of 64
    // bios). The median stands in for the mean: most reads come from the
    // drive's read-ahead at link speed, a few wait for the media, so it is
    // at or below the mean (hdd-7200-sata: 0.94).
    const double outstanding = r.iops * r.p50_ms / 1000.0;
    CHECK(outstanding <= 1.02);
    CHECK(outstanding >= 0.9);
  }
}

TEST_CASE("devbench's streaming sequential job is the deep one: 64 bios of 8 kB in one request") {
  const os::DirectJobResult r = run_job("hdd-7200-sata", "seqread-stream");
  CHECK(r.max_in_flight == 1);                                               // merged into one 512 kB request
  CHECK(r.iops * r.p50_ms / 1000.0 == doctest::Approx(64.0).epsilon(0.02));  // 64 bios outstanding
}
