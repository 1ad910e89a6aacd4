// A run on a cloud volume through the binary: system.csv carries the
// volume's budget, and the volume never passes its cap in any interval.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "analysis/csv.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;

namespace {

ckptsim::analysis::CsvTable run_system(const std::string& name, const std::string& sets) {
  TempDir tmp("volume-" + name);
  write_text(tmp / "s.json", R"({"preset": ["box/cloud-vm"],
    "postgres": {"version": "16", "shared_buffers": "128MB", "max_wal_size": "64MB", "checkpoint_completion_target": 0.5},
    "pgbench": {"builtin": "tpcb-like", "scale": 20, "clients": 8, "threads": 2, "duration": "30s"}, "seed": 1})");
  const auto r =
      run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() + " --quiet " + sets, tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return ckptsim::analysis::read_csv(tmp / "out" / "system.csv");
}

double cell(const ckptsim::analysis::CsvTable& t, std::size_t row, const std::string& column) {
  return std::stod(t.rows[row][static_cast<std::size_t>(t.column(column))]);
}

}  // namespace

TEST_CASE("gp3 under checkpoints: vol_* columns after the iostat ones, at most 3,000 operations a second") {
  const auto t = run_system("gp3", "");
  const auto at = [&](const char* c) { return t.column(c); };
  REQUIRE(at("vol_iops") >= 0);
  CHECK(at("vol_iops") == at("data_util_pct") + 1);
  CHECK(at("vol_mb_s") == at("vol_iops") + 1);
  CHECK(at("vol_burst_balance_pct") == at("vol_iops") + 2);
  CHECK(at("vol_throttled_ms") == at("vol_iops") + 3);
  double throttled = 0, busiest = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    busiest = std::max(busiest, cell(t, r, "vol_iops"));
    // One second of 3,000, plus at most the 10 ms of pacing tolerance (30).
    CHECK(cell(t, r, "vol_iops") <= 3030);
    CHECK(cell(t, r, "vol_mb_s") <= 125 * 1.01);
    CHECK(cell(t, r, "vol_throttled_ms") >= 0);
    CHECK(cell(t, r, "vol_throttled_ms") <= 1000);
    CHECK(cell(t, r, "vol_burst_balance_pct") == 100);  // gp3 has no credit bucket
    throttled += cell(t, r, "vol_throttled_ms");
  }
  MESSAGE("gp3: busiest second ", busiest, " operations, ", throttled, " ms throttled in all");
  CHECK(busiest >= 2900);  // the checkpoints reach the cap
  CHECK(throttled > 0);
}

TEST_CASE("gp2 100 GiB with an empty credit bucket runs at its 300 IOPS baseline") {
  const auto t = run_system("gp2", "--set hardware.device=ebs-gp2-100 --set device.volume_burst_balance=0");
  double busiest = 0;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    busiest = std::max(busiest, cell(t, r, "vol_iops"));
    CHECK(cell(t, r, "vol_iops") <= 300 + 3);        // the refill, and the 10 ms tolerance of the 3,000 ceiling
    CHECK(cell(t, r, "vol_burst_balance_pct") < 1);  // what refills is spent at once
  }
  CHECK(busiest >= 290);  // commits alone keep it at the baseline
}
