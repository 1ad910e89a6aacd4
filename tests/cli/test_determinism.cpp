// Every output but perf.json is a pure function of the scenario and its seed.
#include <doctest/doctest.h>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

const char* kGrid = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"shared_buffers": "128MB"},
  "pgbench": {"scale": 100, "clients": 4, "threads": 2, "duration": "5s", "rate": 200, "latency_limit": "100ms"},
  "warmup": {"builtin": "select-only", "duration": "2s"},
  "grid": {"pgbench.clients": [2, 4], "hardware.device": ["hdd-7200-sata", "nvme"]},
  "seed": 42
})";

}  // namespace

TEST_CASE("a grid with --jobs 1 and --jobs 2 gives byte-identical files") {
  TempDir tmp("determinism-jobs");
  write_text(tmp / "g.json", kGrid);
  const auto a =
      run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --jobs 1 --out " + (tmp / "a").string(), tmp);
  const auto b =
      run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --jobs 2 --out " + (tmp / "b").string(), tmp);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const auto fa = outputs(tmp / "a"), fb = outputs(tmp / "b");
  CHECK(fa.size() == 4 * 9 + 3);  // 4 points x (run.json, progress, system, waits, io_layers, checkpoints,
                                  // postgres.log, pgbench.log, summary) + summary.csv + report.txt + grid.json
  CHECK(fa == fb);
  CHECK(fs::exists(tmp / "a" / "clients=2,device=nvme" / "progress.csv"));
  const std::string summary = slurp(tmp / "a" / "summary.csv");
  CHECK(summary.rfind("pgbench.clients,hardware.device,tps_mean,tps_stddev,", 0) == 0);
}

TEST_CASE("the same scenario twice gives identical files; another seed changes them") {
  TempDir tmp("determinism-seed");
  std::string single = kGrid;
  single.erase(single.find("  \"grid\""), single.find("  \"seed\"") - single.find("  \"grid\""));
  write_text(tmp / "s.json", single);
  const std::string one = "run " + (tmp / "s.json").string() + " --quiet ";
  REQUIRE(run_ckptsim(one + "--out " + (tmp / "a").string(), tmp).exit_code == 0);
  REQUIRE(run_ckptsim(one + "--out " + (tmp / "b").string(), tmp).exit_code == 0);
  REQUIRE(run_ckptsim(one + "--seed 43 --out " + (tmp / "c").string(), tmp).exit_code == 0);
  CHECK(outputs(tmp / "a") == outputs(tmp / "b"));
  // Under -R the schedule is random: a different seed gives a different series.
  CHECK(slurp(tmp / "a" / "progress.csv") != slurp(tmp / "c" / "progress.csv"));
}
