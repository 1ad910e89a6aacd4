// `ckptsim calibrate`: fio's JSON output of scripts/calibrate.fio in, a device
// out whose figures under devbench's job runner match fio's within 15 % per
// job (issue 30's acceptance), for a disk recorded on the development host
// and a hand-written gp3-like plateau; bad input refused with its path.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/calibrate/device_fit.h"
#include "cli/calibrate/fio_report.h"
#include "cli/commands/calibrate.h"
#include "scenarios/scenario.h"

namespace fs = std::filesystem;
using namespace ckptsim;

namespace {

const fs::path kData = fs::path(CKPTSIM_SOURCE_DIR) / "tests" / "data";

cli::DeviceFit fit(const std::string& file) {
  const cli::FioReport report = cli::read_fio_report(kData / file);
  const scenarios::Plan plan = scenarios::load_plan(nlohmann::json::object(), fs::current_path());
  return cli::fit_device(report, plan.points.at(0).scenario.os, 1);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The messages of the refusal of `text`, joined.
std::string refusal(const std::string& text) {
  try {
    (void)cli::parse_fio_report(text, "in.json");
  } catch (const cli::FioReportError& e) {
    std::string all;
    for (const auto& m : e.messages) all += m + "\n";
    return all;
  }
  return "";
}

}  // namespace

TEST_CASE("calibrate: this development host's disk, recorded with fio 3.33, fits within 15 % per job") {
  const cli::DeviceFit f = fit("fio-this-machine.json");
  CHECK(f.shape == cli::DeviceShape::Flash);  // 8k reads in well under a millisecond, no plateau
  REQUIRE(f.checks.size() == cli::kCalibrationJobs.size());
  for (const cli::JobCheck& c : f.checks) {
    INFO(c.job->name, ": fio ", c.fio_iops, " IOPS, model ", c.model_iops);
    CHECK(std::abs(c.difference()) <= 0.15);
  }
}

TEST_CASE("calibrate: a gp3-like plateau is a throttled volume capped at its 3,000 IOPS") {
  const cli::DeviceFit f = fit("fio-gp3-hand.json");
  CHECK(f.shape == cli::DeviceShape::ThrottledVolume);
  // The cap is what limits every QD32 job: the controller's rate sits on the plateau.
  CHECK(f.device.host_iops_cap == doctest::Approx(3000).epsilon(0.05));
  // Write-through: a write-and-fdatasync costs what the write does, so no volatile cache.
  CHECK(f.device.power_loss_protection);
  for (const cli::JobCheck& c : f.checks) {
    INFO(c.job->name, ": fio ", c.fio_iops, " IOPS, model ", c.model_iops);
    CHECK(std::abs(c.difference()) <= 0.15);
  }
}

TEST_CASE("calibrate: input that is not fio's JSON, or lacks a job, is refused naming the file and the JSON path") {
  CHECK(refusal("progress: 1.0 s, 10 tps").find("in.json: not JSON output of fio") == 0);
  CHECK(refusal(R"({"fio version": "fio-3.33"})").find("in.json: /jobs: missing") == 0);
  // The gp3 file without its fsync job: that job, by name, under /jobs.
  nlohmann::json doc = nlohmann::json::parse(slurp(kData / "fio-gp3-hand.json"));
  doc["jobs"].erase(doc["jobs"].size() - 1);
  CHECK(refusal(doc.dump()) == "in.json: /jobs: no job named \"fsync-8k\" (expected every job of scripts/calibrate.fio)\n");
  // A job run with another block size is not the job calibrate fits to.
  doc = nlohmann::json::parse(slurp(kData / "fio-gp3-hand.json"));
  doc["jobs"][0]["job options"]["bs"] = "16k";
  CHECK(refusal(doc.dump()) == "in.json: /jobs/0/job options/bs: \"16k\" (expected 4k for randread-4k-qd1)\n");
  doc = nlohmann::json::parse(slurp(kData / "fio-gp3-hand.json"));
  doc["jobs"][2]["write"]["iops"] = 0;
  CHECK(refusal(doc.dump()) ==
        "in.json: /jobs/2/write/iops: 0 (expected a number of I/Os per second above 0)\n");
}

TEST_CASE("calibrate: the preset file loads with --preset-file and is never written over") {
  const fs::path dir = fs::temp_directory_path() / ("ckptsim-calibrate-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "gp3.json";
  const cli::CalibrateArgs args{.fio_json = (kData / "fio-gp3-hand.json").string(), .name = "gp3", .out = out.string()};
  REQUIRE(cli::command_calibrate(args) == 0);
  const scenarios::LoadOptions options{.sets = {}, .preset_files = {out}};
  const scenarios::Plan plan = scenarios::load_plan(nlohmann::json::object(), dir, options);
  const disk::DeviceConfig& d = plan.points.at(0).scenario.device;
  CHECK(d.kind == disk::Kind::Ssd);
  CHECK(d.mirrors == 1);  // every device key is written: the default raid1 preset does not show through
  CHECK(d.host_iops_cap == doctest::Approx(3000).epsilon(0.05));  // the fitted plateau, read back
  const std::string first = slurp(out);
  CHECK(cli::command_calibrate(args) == 2);  // exists: refused
  CHECK(slurp(out) == first);
  fs::remove_all(dir);
}
