// A fine log judged at a coarser interval (analysis/interval_merge.h).
#include <doctest/doctest.h>

#include <sstream>

#include "analysis/interval_merge.h"
#include "analysis/pgbench_logs.h"
#include "analysis/tps_input.h"
#include "run_folder_names.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::kRunFolder;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

TEST_CASE("merging k intervals takes their mean; a last group cut short is the mean of what it had") {
  CHECK(merge_intervals({10, 20, 30, 0, 0, 60, 70}, 3) == std::vector<double>{20, 20, 70});
  CHECK(merge_intervals({10, 20}, 1) == std::vector<double>{10, 20});
}

TEST_CASE("an --interval is merged only as a whole multiple of the file's own, above it") {
  CHECK(intervals_per_merge(1, 5, 10, "p.log") == 5);
  CHECK(intervals_per_merge(0.5, 5, 10, "p.log") == 10);
  CHECK(intervals_per_merge(1, 1, 10, "p.log") == 0);  // the file's own
  CHECK(intervals_per_merge(1, 0, 10, "p.log") == 0);  // none given
  CHECK(intervals_per_merge(5, 1, 10, "p.log") == 0);  // below: the reader refuses it
  CHECK(intervals_per_merge(1, 5, 1, "p.log") == 0);   // one reading: its interval is a guess
  CHECK_THROWS_WITH(intervals_per_merge(1, 2.5, 10, "p.log"),
                    doctest::Contains("p.log: --interval 2.5 is not a whole number of the file's 1 s intervals"));
}

TEST_CASE("a -P 1 log read at --interval 5: five-second means, and the failed count of pgbench 15's lines") {
  ScratchDir dir;
  std::ostringstream log;
  // 1 s lines 10, 20, ... 100 tps; second 7 has no line (a stall: 0 tps).
  for (int second = 1; second <= 10; ++second) {
    if (second == 7) continue;
    log << "progress: " << second << ".0 s, " << second * 10 << ".0 tps, lat 1.0 ms stddev 0.1, " << second % 3
        << " failed\n";
  }
  write_text(dir / "p.log", log.str());
  const TpsInput input = read_tps_input(kRunFolder, {dir / "p.log"}, 5);
  CHECK(input.interval_s == 5);
  CHECK(input.tps == std::vector<double>{30, (60 + 0 + 80 + 90 + 100) / 5.0});
  CHECK(input.has_failed);
  CHECK(input.failed == 9);  // second % 3 summed over seconds 1-10 but 7: 10 - 1
}

TEST_CASE("pgbench 15's aggregate log: failed = serialization_failures + deadlock_failures; 9.x logs have none") {
  ScratchDir dir;
  write_text(dir / "pgbench_log.1", "100 50 0 0 0 0 0 0 0 0 0 0 0 2 1\n101 60 0 0 0 0 0 0 0 0 0 0 0 0 4\n");
  const TpsInput pg15 = read_tps_input(kRunFolder, {dir / "pgbench_log.1"});
  CHECK(pg15.has_failed);
  CHECK(pg15.failed == 7);
  write_text(dir / "pgbench_log.2", "100 50 0 0 0 0\n101 60 0 0 0 0\n");
  const TpsInput pg94 = read_tps_input(kRunFolder, {dir / "pgbench_log.2"});
  CHECK_FALSE(pg94.has_failed);
  CHECK(pg94.failed == 0);
}
