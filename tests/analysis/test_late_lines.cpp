// tests/analysis/test_late_lines.cpp: a real -P log of a run that stalled
// (pgbench prints one late line for the stall, "311.6 s", then the next on
// time, "312.0 s") judged as one counts it by hand: the interval is -P's, the
// late line is its own second (311.6 s: second 311, the last that had ended),
// the seconds without a line are 0.
// Each test states its count.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/stability.h"
#include "analysis/tps_input.h"
#include "run_folder_names.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::kRunFolder;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

namespace {

std::string line(const std::string& time, const std::string& tps,
                 const std::string& rest = "lat 2.000 ms stddev 0.500") {
  return "progress: " + time + " s, " + tps + " tps, " + rest + "\n";
}

}  // namespace

TEST_CASE("a -P 1 log with a late line: 1 s intervals, the late line in its own second, the stall's seconds 0") {
  ScratchDir dir;
  write_text(dir / "stderr.log", line("1.0", "100.0") + line("2.0", "100.0") + line("3.0", "100.0") +
                                     line("6.6", "5.0") +   // late: covers 3.0 to 6.6 s
                                     line("7.0", "50.0") +  // on time: covers 6.6 to 7.0 s
                                     line("8.0", "100.0"));
  const TpsInput input = read_tps_input(kRunFolder, {dir / "stderr.log"});
  // By hand: steps 1, 1, 1, 3.6, 0.4, 1 -> -P 1. Seconds 1-3 have 100; 4 and 5
  // no line (0); 6 the late line's 5; 7 has 50; 8 has 100.
  CHECK(input.interval_s == 1.0);
  CHECK(input.tps == std::vector<double>{100, 100, 100, 0, 0, 5, 50, 100});
  // 100 x 3 + 5 x 3.6 + 50 x 0.4 + 100 = 438 transactions.
  CHECK(input.counts.transactions == 438);
  const Stability s = compute_stability(input.tps, 10, input.counts.transactions, 0, 0);
  CHECK(s.tps_mean == doctest::Approx(455.0 / 8));
  CHECK(s.pct_below_threshold == doctest::Approx(37.5));  // seconds 4, 5, 6 of 8
  CHECK(s.tps_median == doctest::Approx(75));             // sorted 0 0 5 50 100 100 100 100
}

TEST_CASE("a 9.6 log with lat -nan seconds and a late line counts as by hand") {
  ScratchDir dir;
  const std::string empty = "lat -nan ms stddev -nan";
  write_text(dir / "stderr.log", line("1.0", "200.0", "lat 5.000 ms stddev 1.000") + line("2.0", "0.0", empty) +
                                     line("4.3", "0.0", empty) +  // late: covers 2.0 to 4.3 s
                                     line("5.0", "150.0", "lat 6.000 ms stddev 2.000"));
  const TpsInput input = read_tps_input(kRunFolder, {dir / "stderr.log"});
  CHECK(input.format == "pgbench -P log (9.4-14)");
  // By hand: steps 1, 1, 2.3, 0.7 -> -P 1; seconds 200, 0, (3: no line) 0, 0, 150.
  CHECK(input.interval_s == 1.0);
  CHECK(input.tps == std::vector<double>{200, 0, 0, 0, 150});
  CHECK(input.counts.transactions == 200 + 105);  // 150 tps over the 0.7 s after the late line
  const Stability s = compute_stability(input.tps, 10, input.counts.transactions, 0, 0);
  CHECK(s.tps_mean == doctest::Approx(70));
  CHECK(s.pct_below_threshold == doctest::Approx(60));
}

TEST_CASE("a -P 5 log with a late line: 5 s intervals") {
  ScratchDir dir;
  write_text(dir / "stderr.log", line("5.0", "10.0") + line("10.0", "20.0") + line("17.5", "2.0") +
                                     line("20.0", "30.0") + line("25.0", "40.0"));
  const TpsInput input = read_tps_input(kRunFolder, {dir / "stderr.log"});
  // By hand: steps 5, 5, 7.5, 2.5, 5 -> -P 5. The report due at 15 s came at
  // 17.5 s: it is the interval that ended at 15 s, the last one ended when it
  // was printed; the 20.0 s line is the next. No interval lacks a line.
  CHECK(input.interval_s == 5.0);
  CHECK(input.tps == std::vector<double>{10, 20, 2, 30, 40});
}

TEST_CASE("--interval below a log's spacing is refused, naming the option, the value and the spacing") {
  ScratchDir dir;
  write_text(dir / "stderr.log", line("1.0", "100.0") + line("2.0", "100.0") + line("3.6", "5.0") + line("4.0", "5.0"));
  try {
    (void)read_tps_input(kRunFolder, {dir / "stderr.log"}, 0.5);
    FAIL("no error");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == (dir / "stderr.log").string() +
                                       ": --interval 0.5 is below the 1 s spacing of the file's intervals: the file "
                                       "cannot be cut finer (expected --interval 1 or more, or none to take the "
                                       "file's own)");
  }
  CHECK(read_tps_input(kRunFolder, {dir / "stderr.log"}, 1).tps == std::vector<double>{100, 100, 5, 5});
  write_text(dir / "progress.csv", "time_s,tps\n2,10\n4,20\n");
  CHECK_THROWS_WITH(read_tps_input(kRunFolder, {dir / "progress.csv"}, 1),
                    doctest::Contains("--interval 1 is below the 2 s spacing"));
}
