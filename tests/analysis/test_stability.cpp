// tests/analysis/test_stability.cpp: the stability figures against series worked by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "analysis/stability.h"

using ckptsim::analysis::compute_stability;

TEST_CASE("stability figures follow numpy's conventions (population stddev, type-7 quartiles)") {
  // Series {0,0,10,20,30,40,100,0}, n = 8, sum 200:
  //   mean = 25; squared deviations 625,625,225,25,25,225,5625,625 sum to 8000,
  //   population variance 8000/8 = 1000, stddev = sqrt(1000) = 31.6227766.
  //   sorted: 0 0 0 10 20 30 40 100; type 7 puts q(p) at (n-1)p = 7p:
  //   q1 at 1.75 -> 0 + 0.75*(0-0) = 0; median at 3.5 -> 10 + 0.5*10 = 15;
  //   q3 at 5.25 -> 30 + 0.25*10 = 32.5. Below 10: the three zeros -> 37.5%.
  const std::vector<double> tps = {0, 0, 10, 20, 30, 40, 100, 0};
  const auto s = compute_stability(tps, 10, 200, 0, 0);
  CHECK(s.tps_mean == doctest::Approx(25.0));
  CHECK(s.tps_stddev == doctest::Approx(31.6227766));
  CHECK(s.tps_min == 0.0);
  CHECK(s.tps_q1 == doctest::Approx(0.0));
  CHECK(s.tps_median == doctest::Approx(15.0));
  CHECK(s.tps_q3 == doctest::Approx(32.5));
  CHECK(s.tps_max == 100.0);
  CHECK(s.threshold == 10.0);
  CHECK(s.pct_below_threshold == doctest::Approx(37.5));
}

TEST_CASE("quartiles interpolate between order statistics when they fall between them") {
  // sorted 1 2 3 4: q1 at 0.75 -> 1.75, median at 1.5 -> 2.5, q3 at 2.25 -> 3.25
  const std::vector<double> tps = {4, 1, 3, 2};
  const auto s = compute_stability(tps, 10, 0, 0, 0);
  CHECK(s.tps_q1 == doctest::Approx(1.75));
  CHECK(s.tps_median == doctest::Approx(2.5));
  CHECK(s.tps_q3 == doctest::Approx(3.25));
  CHECK(s.pct_below_threshold == doctest::Approx(100.0));
}

TEST_CASE("an interval at exactly the threshold is not below it") {
  const std::vector<double> tps = {10, 10, 9.999, 11};
  const auto s = compute_stability(tps, 10, 0, 0, 0);
  CHECK(s.pct_below_threshold == doctest::Approx(25.0));  // only 9.999
}

TEST_CASE("an empty series gives zeros, not NaN") {
  const auto s = compute_stability({}, 10, 0, 0, 0);
  for (double v : {s.tps_mean, s.tps_stddev, s.pct_below_threshold, s.tps_min, s.tps_q1, s.tps_median, s.tps_q3,
                   s.tps_max, s.skipped_pct, s.late_pct}) {
    CHECK_FALSE(std::isnan(v));
    CHECK(v == 0.0);
  }
  CHECK(s.threshold == 10.0);
}

TEST_CASE("a single interval is its own mean, quartiles and extremes, with no spread") {
  const std::vector<double> tps = {42};
  const auto s = compute_stability(tps, 10, 42, 0, 0);
  CHECK(s.tps_mean == 42.0);
  CHECK(s.tps_stddev == 0.0);
  CHECK(s.tps_q1 == 42.0);
  CHECK(s.tps_median == 42.0);
  CHECK(s.tps_q3 == 42.0);
  CHECK(s.pct_below_threshold == 0.0);
}

TEST_CASE("skipped and late percentages use pgbench's denominator: processed + skipped") {
  // 900 processed (of which 45 late) + 100 skipped = 1000 scheduled:
  //   skipped 100/1000 = 10%, late 45/1000 = 4.5%
  const std::vector<double> tps = {100};
  const auto s = compute_stability(tps, 10, 900, 100, 45);
  CHECK(s.skipped_pct == doctest::Approx(10.0));
  CHECK(s.late_pct == doctest::Approx(4.5));
  // Nothing scheduled: zeros rather than 0/0.
  const auto none = compute_stability(tps, 10, 0, 0, 0);
  CHECK(none.skipped_pct == 0.0);
  CHECK(none.late_pct == 0.0);
}
