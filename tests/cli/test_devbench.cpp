// `ckptsim devbench`'s jobs (cli/commands/devbench.h): a -qd1 job keeps one I/O
// outstanding, at the application as at the device.
#include <doctest/doctest.h>

#include "cli/commands/devbench.h"
#include "models/disk/make_device.h"
#include "models/os/block_queue.h"
#include "scenarios/scenario.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim;
using namespace ckptsim::testing;

namespace {

os::DirectJobResult run_job(const std::string& preset, const std::string& job_name) {
  const nlohmann::json doc = {{"hardware", {{"device", preset}}}};
  const scenarios::Scenario sc = scenarios::load_plan(scenarios::json(doc)).points.at(0).scenario;
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

namespace {

// The p50 latency of one job in `ckptsim devbench ARGS --json`.
double p50_ms(const CommandResult& r, const std::string& job_name) {
  const auto doc = nlohmann::json::parse(r.out);
  for (const auto& job : doc.at("jobs")) {
    if (job.at("name") == job_name) return job.at("lat_ms").at("p50").get<double>();
  }
  FAIL("no devbench job " << job_name);
  return 0;
}

}  // namespace

TEST_CASE("devbench takes --set device.KEY=VALUE and --preset-file over the preset, as run does") {
  TempDir tmp("devbench-settings");
  const CommandResult plain = run_ckptsim("devbench nvme --json", tmp);
  const CommandResult set = run_ckptsim("devbench nvme --json --set device.host_overhead=200us", tmp);
  write_text(tmp / "slow-host.json", R"({"device": {"host_overhead": "200us"}})");
  const CommandResult file = run_ckptsim("devbench nvme --json --preset-file " + quoted(tmp / "slow-host.json"), tmp);
  REQUIRE(plain.exit_code == 0);
  REQUIRE(set.exit_code == 0);
  REQUIRE(file.exit_code == 0);
  // A qd1 read pays the host overhead once: nvme's is 8 us, so 192 us more.
  CHECK(p50_ms(set, "randread-qd1") - p50_ms(plain, "randread-qd1") == doctest::Approx(0.192).epsilon(0.001));
  CHECK(p50_ms(file, "randread-qd1") == doctest::Approx(p50_ms(set, "randread-qd1")));
  CHECK(nlohmann::json::parse(set.out).at("preset") == "nvme");

  const CommandResult bad = run_ckptsim("devbench nvme --set device.host_overhead=fast", tmp);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("host_overhead") != std::string::npos);
  CHECK(bad.out.empty());
}

TEST_CASE("devbench runs through the scenario's blk-throttle: writes at its cap, reads as before, drains at it too") {
  TempDir tmp("devbench-throttle");
  const auto r = run_ckptsim("devbench nvme --set os.blkio_throttle.write_iops=300 --json", tmp);
  REQUIRE(r.exit_code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, double> iops;
  for (const auto& job : doc.at("jobs")) iops[job.at("name").get<std::string>()] = job.at("iops").get<double>();
  // 30 bios per 100 ms slice: a qd1 writer completes 300 a second, qd32 no more.
  CHECK(iops.at("randwrite-qd1") == doctest::Approx(300).epsilon(0.02));
  CHECK(iops.at("randwrite-qd32") <= 305);
  CHECK(iops.at("randwrite-qd32") >= 270);
  CHECK(iops.at("randread-qd32") > 100000);  // no read limit
  for (const auto& drain : doc.at("drain")) CHECK(drain.at("random_writes_per_s").get<double>() <= 305);
  const auto plain = run_ckptsim("devbench nvme --set os.blkio_throttle.write_iops=300", tmp);
  CHECK(plain.out.find("blk-throttle 300 write IOPS") != std::string::npos);
}
