// tests/cli/test_validate.cpp
//
// `ckptsim validate` (cli/commands/validate.cpp): the server log's checkpoint
// phases, the figures and their bands on runs worked out by hand, and then
// every stored real recording (tests/data/storm) against its simulation,
// with the misses that tests/data/storm/EXPECTED_MISSES explains: the test
// fails on a miss not listed there and on a listed one that now holds.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/validate/storm_figures.h"
#include "cli/validate/storm_run.h"
#include "run_helpers.h"

using namespace ckptsim;
using namespace ckptsim::cli;
using ckptsim::testing::quoted;
using ckptsim::testing::run_ckptsim;
using ckptsim::testing::slurp;
using ckptsim::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path kStorm = fs::path(CKPTSIM_SOURCE_DIR) / "tests" / "data" / "storm";

const Verdict& verdict(const std::vector<Verdict>& rows, const std::string& key) {
  for (const Verdict& v : rows) {
    if (v.key == key) return v;
  }
  FAIL("no figure " << key);
  return rows.front();
}

}  // namespace

TEST_CASE("log_checkpoints lines give each checkpoint's phases on the run's clock") {
  std::istringstream log(
      "2026-12-07 10:16:00.000 UTC [1] LOG:  checkpoint starting: time\n"
      "2026-12-07 10:16:55.500 UTC [1] LOG:  checkpoint complete: wrote 16354 buffers (49.9%); 0 WAL file(s) "
      "added, 1 removed, 32 recycled; write=53.712 s, sync=1.500 s, total=55.500 s; sync files=32\n"
      "2026-12-07 10:17:00.000 UTC [1] LOG:  checkpoint starting: wal\n"
      "2026-12-07 10:18:00.000 UTC [1] LOG:  checkpoint starting: shutdown immediate\n");
  // 10:15:50 UTC on 2026-12-07 is epoch 1796638550.
  const std::vector<CheckpointSpan> spans = checkpoints_from_log(log, 1796638550.0, "postgres.log");
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].start_s == doctest::Approx(10.0));
  CHECK(*spans[0].write_end_s == doctest::Approx(63.712));
  CHECK(*spans[0].sync_end_s == doctest::Approx(65.212));
  CHECK(spans[0].buffers == 16354);
  CHECK_FALSE(spans[1].complete());  // began, never ended in the log
  CHECK(spans[1].start_s == doctest::Approx(70.0));
  CHECK(spans[2].shutdown);
}

TEST_CASE("the figures of a run worked out by hand: phases of 3 s or more, the checkpoints within the run") {
  StormRun run;
  // 0-10 s between at 100 tps, 10-60 write at 50, 60-70 sync at 0, 70-72 between (2 s: too short) at 80,
  // 72-100 the write phase of a checkpoint that is still running at the end, at 40.
  for (int s = 0; s < 100; ++s) {
    run.tps.push_back(s < 10 ? 100 : s < 60 ? 50 : s < 70 ? 0 : s < 72 ? 80 : 40);
  }
  CheckpointSpan first;
  first.start_s = 10;
  first.write_end_s = 60;
  first.sync_end_s = 70;
  first.buffers = 1000;
  CheckpointSpan second;
  second.start_s = 72;
  run.checkpoints = {first, second};
  const StormFigures f = storm_figures(run);
  CHECK(f.pct_below_10 == doctest::Approx(10.0));
  CHECK(f.mean == doctest::Approx((10 * 100 + 50 * 50 + 2 * 80 + 28 * 40) / 100.0));
  CHECK(f.median == doctest::Approx(50.0));
  CHECK(*f.between == doctest::Approx(100.0));  // the 2 s gap is left out
  CHECK(*f.write == doctest::Approx((50 * 50 + 28 * 40) / 78.0));
  CHECK(*f.sync == doctest::Approx(0.0));
  CHECK(f.checkpoints == 1);  // the second did not end within the run
  CHECK(f.write_s == doctest::Approx(50.0));
  CHECK(f.sync_s == doctest::Approx(10.0));
  CHECK(f.buffers == doctest::Approx(1000.0));
}

TEST_CASE("each band holds up to its edge and not past it") {
  StormFigures real, sim;
  real.mean = 100, sim.mean = 120;  // +20 %: held
  real.median = 20, sim.median = 30;  // 50 % but 10 tps: held
  real.pct_below_10 = 30, sim.pct_below_10 = 41;  // 11 points: missed
  real.between = 40, sim.between = 51;  // 27.5 % and 11 tps: missed
  real.checkpoints = sim.checkpoints = 1;
  real.write_s = 50, sim.write_s = 66;  // 32 %: missed
  real.sync_s = 0.3, sim.sync_s = 0.9;  // both under 1 s: held
  real.buffers = 1000, sim.buffers = 850;  // -15 %: held
  const std::vector<Verdict> rows = judge(real, sim);
  CHECK(verdict(rows, "mean").held);
  CHECK(verdict(rows, "median").held);
  CHECK_FALSE(verdict(rows, "pct_below_10").held);
  CHECK_FALSE(verdict(rows, "between").held);
  CHECK_FALSE(verdict(rows, "write_phase").compared);  // neither run has a write phase here
  CHECK_FALSE(verdict(rows, "write_s").held);
  CHECK(verdict(rows, "sync_s").held);
  CHECK(verdict(rows, "buffers").held);
  sim.sync_s = 2.5;
  real.sync_s = 1.2;  // x2.08: missed
  CHECK_FALSE(verdict(judge(real, sim), "sync_s").held);
}

TEST_CASE("every stored recording against ckptsim: the bands, the orderings, and EXPECTED_MISSES") {
  TempDir tmp("validate");
  std::string folders;
  for (const auto& entry : fs::directory_iterator(kStorm)) {
    if (entry.is_directory()) folders.append(" ").append(quoted(entry.path()));
  }
  const auto r = run_ckptsim("validate" + folders + " --json --out " + quoted(tmp / "out"), tmp);
  INFO(r.err);
  const auto result = nlohmann::json::parse(r.out);
  REQUIRE(result.at("recordings").size() == 10);

  std::set<std::string> expected;  // "recording figure"
  std::ifstream listed(kStorm / "EXPECTED_MISSES");
  REQUIRE(listed);
  for (std::string line; std::getline(listed, line);) {
    std::istringstream words(line);
    std::string recording, figure;
    if (line.empty() || line[0] == '#' || !(words >> recording >> figure)) continue;
    expected.insert(recording.append(" ").append(figure));
  }
  std::set<std::string> missed;
  int compared = 0;
  for (const auto& rec : result.at("recordings")) {
    for (const auto& row : rec.at("figures")) {
      if (!row.at("compared").get<bool>()) continue;
      ++compared;
      if (!row.at("held").get<bool>()) {
        missed.insert(rec.at("recording").get<std::string>().append(" ").append(row.at("key").get<std::string>()));
      }
    }
  }
  std::string unlisted, holds_now;
  for (const std::string& m : missed) {
    if (!expected.contains(m)) unlisted += m + "\n";
  }
  for (const std::string& e : expected) {
    if (!missed.contains(e)) holds_now += e + "\n";
  }
  CHECK_MESSAGE(unlisted == "", "misses not in EXPECTED_MISSES");
  CHECK_MESSAGE(holds_now == "", "listed in EXPECTED_MISSES but held: take them out");
  CHECK(compared >= 70);  // most figures are compared at all
  // The pairs that differ only in checkpoint_flush_after keep their order of stalls.
  CHECK(result.at("orderings").size() == 4);
  for (const auto& o : result.at("orderings")) CHECK(o.at("held").get<bool>());
  CHECK(r.exit_code == (missed.empty() ? 0 : 1));
  CHECK(result.at("missed").get<int>() == static_cast<int>(missed.size()));
  // Each recording's folder has the run, its verdicts and the picture of both.
  const fs::path one = tmp / "out" / "iops600-cfa0";
  CHECK(fs::exists(one / "progress.csv"));
  CHECK(nlohmann::json::parse(slurp(one / "validate.json")).at("recording") == "iops600-cfa0");
  CHECK(fs::exists(one / "compare.gp"));
}

TEST_CASE("--print-scenario is what validate runs: ckptsim run on it gives the same run") {
  TempDir tmp("validate-print");
  const fs::path recording = kStorm / "iops600-cfa256kB";
  const auto printed = run_ckptsim("validate " + quoted(recording) + " --print-scenario", tmp);
  REQUIRE(printed.exit_code == 0);
  const auto doc = nlohmann::json::parse(printed.out);
  CHECK(doc.at("os").at("blkio_throttle").at("write_iops") == 600);
  CHECK(doc.at("hardware").at("device") == "virtio-this-machine");
  ckptsim::testing::write_text(tmp / "storm.json", printed.out);
  REQUIRE(run_ckptsim("run " + quoted(tmp / "storm.json") + " --quiet --out " + quoted(tmp / "run"), tmp).exit_code ==
          0);
  REQUIRE(run_ckptsim("validate " + quoted(recording) + " --out " + quoted(tmp / "validated"), tmp).exit_code == 0);
  CHECK(slurp(tmp / "run" / "progress.csv") == slurp(tmp / "validated" / "progress.csv"));
  CHECK(slurp(tmp / "run" / "checkpoints.csv") == slurp(tmp / "validated" / "checkpoints.csv"));
  // system.csv shows the throttle's queue.
  CHECK(slurp(tmp / "run" / "system.csv").find("blkthrotl_queued,blkthrotl_wait_ms") != std::string::npos);
}

TEST_CASE("a recording validate cannot read exits 2 naming the file; a user's folder is not written into") {
  TempDir tmp("validate-bad");
  fs::create_directories(tmp / "rec");
  const auto missing = run_ckptsim("validate " + quoted(tmp / "rec"), tmp);
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("rec/recording.json: cannot be read") != std::string::npos);
  // A user's own file in --out: refused before anything runs, and the file stays.
  fs::create_directories(tmp / "mine");
  ckptsim::testing::write_text(tmp / "mine" / "notes.txt", "mine");
  const auto refused = run_ckptsim("validate " + quoted(kStorm / "iops600-cfa0") + " --out " + quoted(tmp / "mine"), tmp);
  CHECK(refused.exit_code == 2);
  CHECK(slurp(tmp / "mine" / "notes.txt") == "mine");
  CHECK_FALSE(fs::exists(tmp / "mine" / "progress.csv"));
}
