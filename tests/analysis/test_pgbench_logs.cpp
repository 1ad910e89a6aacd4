// tests/analysis/test_pgbench_logs.cpp: real pgbench -P and aggregate logs read
// into the same per-interval tps series as a progress.csv (analysis/tps_input.h).
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/pgbench_logs.h"
#include "analysis/tps_input.h"
#include "run_folder_names.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::kRunFolder;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

namespace {

std::string error_of_input(const std::vector<std::filesystem::path>& files) {
  try {
    read_tps_input(kRunFolder, files);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a pgbench 15 -P log on stderr: other lines passed over, a stall's missing seconds are 0 tps") {
  ScratchDir dir;
  // As pgbench 15 writes stderr: banner lines, then one line per second, and
  // after a 3 s stall one late line covering it (printProgressReport's catch-up).
  write_text(dir / "stderr.txt",
             "pgbench (15.4 (Debian 15.4-1))\n"
             "starting vacuum...end.\n"
             "progress: 1.0 s, 500.0 tps, lat 1.998 ms stddev 0.500, 0 failed\n"
             "progress: 2.0 s, 480.0 tps, lat 2.080 ms stddev 0.612, 0 failed\n"
             "progress: 5.1 s, 40.0 tps, lat 99.000 ms stddev 10.000, 0 failed\n"
             "progress: 6.0 s, 300.0 tps, lat 3.300 ms stddev 0.700, 0 failed\n"
             "transaction type: <builtin: TPC-B (sort of)>\n");
  const TpsInput input = read_tps_input(kRunFolder, {dir / "stderr.txt"});
  CHECK(input.format == "pgbench -P log (15+)");
  // -P 1: the most common step (1.0 s twice; 3.1 s and 0.9 s once), not the smallest.
  CHECK(input.interval_s == 1.0);
  // Seconds 3 and 4 are missing; the late 5.1 s line is second 5.
  CHECK(input.tps == std::vector<double>{500, 480, 0, 0, 40, 300});
  const TpsInput one_s = read_tps_input(kRunFolder, {dir / "stderr.txt"}, 1);
  CHECK(one_s.tps == input.tps);
  // 40 tps over the 3.1 s the late line covers.
  CHECK(one_s.counts.transactions == 500 + 480 + 124 + 270);
  CHECK_FALSE(one_s.has_skipped);
  CHECK_FALSE(one_s.has_late);
}

TEST_CASE("a 9.6 -P log (no failed field) with -R -L counts its skipped transactions; nan latencies are read") {
  std::istringstream in(
      "progress: 1.0 s, 100.0 tps, lat 2.000 ms stddev 0.100, lag 0.300 ms, 0 skipped\n"
      "progress: 2.0 s, 0.0 tps, lat -nan ms stddev -nan, lag -nan ms, 7 skipped\n"
      "progress: 3.0 s, 90.0 tps, lat 2.500 ms stddev 0.200, lag 0.400 ms, 3 skipped\n");
  const PgbenchReadings r = read_progress_log(in, "p.log");
  CHECK(r.format == "pgbench -P log (9.4-14)");
  CHECK(r.has_skipped);
  CHECK(r.skipped == 10);
  CHECK(r.transactions == 190);
  REQUIRE(r.readings.size() == 3);
  CHECK(r.readings[1].tps == 0.0);
}

TEST_CASE("--progress-timestamp epoch times count from one interval before the first report") {
  std::istringstream in(
      "progress: 1796219881.000 s, 10.0 tps, lat 1.000 ms stddev 0.100, 0 failed\n"
      "progress: 1796219882.000 s, 20.0 tps, lat 1.000 ms stddev 0.100, 0 failed\n"
      "progress: 1796219885.000 s, 30.0 tps, lat 1.000 ms stddev 0.100, 0 failed\n");
  const PgbenchReadings r = read_progress_log(in, "p.log");
  CHECK(place_on_interval_grid(r.readings, r.interval_s, "p.log") == std::vector<double>{10, 20, 0, 0, 30});
}

TEST_CASE("a time more than 10 million intervals from the start is refused, not placed on a huge grid") {
  // An aggregate log whose timestamps jump by 1e8 s (fuzz_csv): the series would need 800 MB.
  const std::vector<TimedTps> readings = {{0, 10, 1}, {1, 20, 2}, {100'000'000, 30, 3}};
  CHECK_THROWS_WITH(place_on_interval_grid(readings, 1, "a.log"),
                    doctest::Contains("a.log:3: time_s 100000000 is more than 10000000 intervals of 1 s"));
  const std::vector<TimedTps> long_run = {{1, 10, 1}, {9'999'999, 30, 2}};
  CHECK(place_on_interval_grid(long_run, 1, "a.log").size() == 9'999'999);
}

TEST_CASE("a progress: line of no known shape, or no -P line at all, is an error naming the line") {
  std::istringstream bad("pgbench (15.4)\nprogress: 1.0 s, lots tps\n");
  CHECK_THROWS_WITH(read_progress_log(bad, "p.log"),
                    doctest::Contains("p.log:2: \"progress: 1.0 s, lots tps\" is not a pgbench -P line"));
  std::istringstream none("pgbench (15.4)\nstarting vacuum...end.\n");
  CHECK_THROWS_WITH(read_progress_log(none, "p.log"), doctest::Contains("p.log:1: no pgbench -P line"));
}

TEST_CASE("one aggregate log per thread (pgbench 15, 15 columns) is merged by interval start") {
  ScratchDir dir;
  write_text(dir / "pgbench_log.4242",
             "1796219880 443 44151693 6325899143875 1276 217840 0 0 0 0 0 0 0 0 0\n"
             "1796219881 400 40000000 6000000000000 1200 200000 0 0 0 0 0 0 0 0 0\n"
             "1796219883 10 40000000 6000000000000 1200 200000 0 0 0 0 0 0 0 0 0\n");
  write_text(dir / "pgbench_log.4242.1",
             "1796219880 57 44151693 6325899143875 1276 217840 0 0 0 0 0 0 0 0 0\n"
             "1796219881 100 40000000 6000000000000 1200 200000 0 0 0 0 0 0 0 0 0\n"
             "1796219882 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
             "1796219883 20 40000000 6000000000000 1200 200000 0 0 0 0 0 0 0 0 0\n");
  // A folder stands for its aggregate logs.
  const TpsInput input = read_tps_input(kRunFolder, {dir.path()});
  CHECK(input.format == "pgbench aggregate log (15+)");
  CHECK(input.interval_s == 1.0);
  CHECK(input.tps == std::vector<double>{500, 500, 0, 30});
  CHECK(input.counts.transactions == 1030);
  CHECK(input.has_skipped);  // column 11, 0 here
  CHECK(input.files.size() == 2);
}

TEST_CASE("a 9.6 aggregate log with -R -L (11 columns) gives its skipped count; missing intervals are 0") {
  ScratchDir dir;
  write_text(dir / "pgbench_log.7",
             "1500000000 50 100000 300000000 1000 5000 2000 90000 10 300 4\n"
             "1500000001 40 100000 300000000 1000 5000 2000 90000 10 300 0\n"
             "1500000003 60 100000 300000000 1000 5000 2000 90000 10 300 1\n");
  const TpsInput input = read_tps_input(kRunFolder, {dir / "pgbench_log.7"}, 1);
  CHECK(input.format == "pgbench aggregate log (9.3-14)");
  CHECK(input.tps == std::vector<double>{50, 40, 0, 60});
  CHECK(input.counts.skipped == 5);
}

TEST_CASE("files that are not all one run's aggregate logs are refused, naming the file") {
  ScratchDir dir;
  write_text(dir / "a.log", "1796219880 443 44151693 6325899143875 1276 217840 0 0 0 0 0 0 0 0 0\n");
  write_text(dir / "b.log", "1796219880 443 44151693 6325899143875 1276 217840\n");
  write_text(dir / "p.csv", "time_s,tps\n1,5\n");
  CHECK(error_of_input({dir / "a.log", dir / "p.csv"}).find("p.csv: not a pgbench aggregate log") != std::string::npos);
  CHECK(error_of_input({dir / "a.log", dir / "b.log"}).find("b.log:1: 6 fields where the logs before have 15") !=
        std::string::npos);
  CHECK(error_of_input({dir / "p.csv", dir / "p.csv"}).find("several files are read together only") !=
        std::string::npos);
  write_text(dir / "x.txt", "hello,world\n1,2\n");
  CHECK(error_of_input({dir / "x.txt"}).find("neither a CSV with columns time_s and tps") != std::string::npos);
}

TEST_CASE("a ckptsim progress.csv reads as before, with its interval and its skipped and late columns") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,tps,skipped,late\n2,10,1,2\n4,20,0,1\n8,30,0,0\n");
  const TpsInput input = read_tps_input(kRunFolder, {dir / "progress.csv"});
  CHECK(input.format == "ckptsim progress.csv");
  CHECK(input.interval_s == 2.0);
  CHECK(input.tps == std::vector<double>{10, 20, 0, 30});
  CHECK(input.counts.skipped == 1);
  CHECK(input.counts.late == 3);
  CHECK(input.has_skipped);
  CHECK(input.has_late);
}

TEST_CASE("aggregate logs of two runs are refused, and one thread's log stands for its whole run or names the missing one") {
  ScratchDir dir;
  const std::string line = "1796219880 200 44151693 6325899143875 1276 217840 0 0 0 0 0 0 0 0 0\n";
  write_text(dir / "pgbench_log.4242", line);
  write_text(dir / "pgbench_log.4242.1", line);
  // Given one thread's log, the run's other thread is read with it: 400 tps, not 200.
  const TpsInput whole = read_tps_input(kRunFolder, {dir / "pgbench_log.4242"});
  CHECK(whole.tps == std::vector<double>{400});
  CHECK(whole.files.size() == 2);
  // A second run's log in the folder: refused, not summed into 600 tps.
  write_text(dir / "pgbench_log.999", line);
  CHECK(error_of_input({dir.path()}).find("the aggregate logs of 2 pgbench runs (pgbench_log.4242, pgbench_log.999)") !=
        std::string::npos);
  std::filesystem::remove(dir / "pgbench_log.999");
  // A thread missing between others is named.
  std::filesystem::remove(dir / "pgbench_log.4242.1");
  write_text(dir / "pgbench_log.4242.2", line);
  CHECK(error_of_input({dir / "pgbench_log.4242"}).find("thread 1's log pgbench_log.4242.1 is missing") !=
        std::string::npos);
}
