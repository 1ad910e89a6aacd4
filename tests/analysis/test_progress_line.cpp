// tests/analysis/test_progress_line.cpp: a pgbench -P line read field by
// field (analysis/progress_line.h): every shape pgbench 9.4-17 prints, and
// fields no pgbench prints refused by name, the 30000-digit ones included
// (std::regex overflowed the stack on them).
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "analysis/pgbench_logs.h"
#include "analysis/progress_line.h"

using namespace ckptsim::analysis;

namespace {

std::string error_of(const std::string& line) {
  try {
    (void)parse_progress_line(line, "p.log", 7);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

const std::string kNines(30000, '9');

}  // namespace

TEST_CASE("every -P line shape of pgbench 9.4 to 17 is read, with its time, tps and skipped count") {
  const ProgressLine plain = parse_progress_line("progress: 5.0 s, 430.5 tps, lat 8.842 ms stddev 6.070", "p", 1);
  CHECK(plain.time_s == 5.0);
  CHECK(plain.tps == 430.5);
  CHECK_FALSE(plain.has_failed);
  CHECK_FALSE(plain.has_skipped);
  const ProgressLine v15 = parse_progress_line(
      "progress: 6.0 s, 12.0 tps, lat 1.000 ms stddev 0.100, 0 failed, lag 0.300 ms, 3 skipped, 2 retried, 5 retries\r",
      "p", 1);
  CHECK(v15.has_failed);
  CHECK(v15.has_skipped);
  CHECK(v15.skipped == 3);
  // 9.x: an empty second's latencies are 0/0, printed "-nan".
  const ProgressLine empty =
      parse_progress_line("progress: 7.0 s, 0.0 tps, lat -nan ms stddev -nan, lag -nan ms", "p", 1);
  CHECK(empty.tps == 0.0);
  CHECK(parse_progress_line("progress: 1796219881.000 s, 1.0 tps, lat nan ms stddev nan", "p", 1).time_s ==
        1796219881.0);
  // pgbench 15 prints with PostgreSQL's own snprintf (src/port/snprintf.c),
  // which spells a NaN "NaN": the stddev of a second with one transaction
  // (tests/data/storm/iops600-cfa0/progress.log, line 302).
  const ProgressLine one =
      parse_progress_line("progress: 1796638910.357 s, 1.0 tps, lat 8624.576 ms stddev NaN, 0 failed", "p", 1);
  CHECK(one.tps == 1.0);
  CHECK(one.has_failed);
  CHECK(parse_progress_line("progress: 9.0 s, 1.0 tps, lat Infinity ms stddev -Infinity", "p", 1).tps == 1.0);
}

TEST_CASE("a -P line with a 30000-digit time, tps, lat or lag is refused naming the file, line and field") {
  CHECK(error_of("progress: " + kNines + " s, 1.0 tps, lat 1.0 ms stddev 1.0") ==
        "p.log:7: time " + kNines.substr(0, 40) +
            "... (30000 characters) is out of range (a double holds up to 1.8e308)");
  CHECK(error_of("progress: 1.0 s, " + kNines + ".5 tps, lat 1.0 ms stddev 1.0") ==
        "p.log:7: tps " + kNines.substr(0, 40) +
            "... (30002 characters) is out of range (a double holds up to 1.8e308)");
  CHECK(error_of("progress: 1.0 s, 1.0 tps, lat " + kNines + " ms stddev 1.0")
            .starts_with("p.log:7: lat " + kNines.substr(0, 40) + "... (30000 characters) is out of range"));
  CHECK(error_of("progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0, lag " + kNines + " ms")
            .starts_with("p.log:7: lag " + kNines.substr(0, 40) + "... (30000 characters) is out of range"));
  CHECK(error_of("progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0, " + kNines + " skipped") ==
        "p.log:7: skipped " + kNines.substr(0, 40) + "... (30000 characters) is more than a 64-bit count holds");
  // Within a double's range, a long number is the value it is.
  const std::string one = std::string(30000, '0') + "1." + std::string(30000, '0');
  CHECK(parse_progress_line("progress: " + one + " s, 2.0 tps, lat 1.0 ms stddev 1.0", "p", 1).time_s == 1.0);
  CHECK(error_of("progress: 1.0 s, 2000000000.0 tps, lat 1.0 ms stddev 1.0") ==
        "p.log:7: tps 2000000000 is out of range (0 to 1e9)");
}

TEST_CASE("a 1 MB -P log of 30000-digit lines is read line by line to the first bad one") {
  std::string text;
  for (int i = 0; i < 34; ++i) text += "progress: 1.0 s, " + kNines + " tps, lat 1.0 ms stddev 1.0\n";
  REQUIRE(text.size() > 1'000'000);
  std::istringstream in("pgbench (15.4)\n" + text);
  CHECK_THROWS_WITH(read_progress_log(in, "big.log"), doctest::Contains("big.log:2: tps 999"));
}

TEST_CASE("a -P line of another shape is refused with what was expected") {
  const std::string expected = "is not a pgbench -P line (expected \"progress: T s, N tps, lat L ms stddev S";
  for (const std::string line : {
           "progress: 1.0 s, lots tps",
           "progress: -1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0",
           "progress: 1e3 s, 1.0 tps, lat 1.0 ms stddev 1.0",
           "progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0,",
           "progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0, 3 skipped, 0 failed",  // pgbench's order: failed first
           "progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0, 0 failed, 0 failed",
           "progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0, 2 retried",
           "progress: 1.0 s, 1.0 tps, lat 1.0 ms stddev 1.0\r\r",
       }) {
    CAPTURE(line);
    CHECK(error_of(line) == "p.log:7: \"" + line.substr(0, line.find_last_not_of('\r') + 1) + "\" " + expected +
                                "[, F failed][, lag G ms][, K skipped][, R retried, T retries]\")");
  }
  CHECK(error_of("progress: 1.0 s, 1.0 tps, lat fast ms stddev 1.0") == "p.log:7: lat \"fast\" is not a number");
}
