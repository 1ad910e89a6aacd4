// tests/analysis/test_report.cpp: the grid table and summary.csv, exactly.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/report.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::read_text;
using ckptsim::analysis::testing::ScratchDir;

namespace {

Stability figures(double mean, double stddev, double below, double mn, double q1, double med, double q3, double mx,
                  double skipped = 0, double late = 0) {
  return Stability{mean, stddev, 10, below, mn, q1, med, q3, mx, skipped, late};
}

}  // namespace

TEST_CASE("the grid table: grid values, avg ± stddev with aligned ±, % below threshold, order statistics") {
  const std::vector<std::string> grid = {"sort", "flush"};
  const std::vector<ReportRow> rows = {
      {{"true", "256kB"}, figures(631.24, 112.56, 0.3, 0, 580, 640.4, 690, 890), 0, {}},
      {{"false", "0"}, figures(157.0, 96.0, 66.2, 0, 0, 0, 120.4, 1510), 0, {}},
  };
  // Widths follow the widest cell: "false"/"256kB" set the grid columns,
  // "1510" the max column; "±" counts as one column of text.
  CHECK(format_report(grid, rows, 10) ==
        "sort   flush | tps avg ± stddev | <10 tps | min   q1  med   q3   max\n"
        "-------------+------------------+---------+-------------------------\n"
        "true   256kB |    631.2 ± 112.6 |    0.3% |   0  580  640  690   890\n"
        "false  0     |    157.0 ± 96.0  |   66.2% |   0    0    0  120  1510\n");
}

TEST_CASE("skipped and late columns appear only when some point has them") {
  std::vector<ReportRow> rows = {
      {{"400"}, figures(398.2, 20.0, 0.0, 350, 390, 400, 410, 420, 1.234, 0.5), 0, {}},
      {{"100"}, figures(100.0, 5.0, 0.0, 90, 98, 100, 102, 110), 0, {}},
  };
  CHECK(format_report({"rate"}, rows, 10) ==
        "rate | tps avg ± stddev | <10 tps | min   q1  med   q3  max | skipped   late\n"
        "-----+------------------+---------+-------------------------+---------------\n"
        "400  |     398.2 ± 20.0 |    0.0% | 350  390  400  410  420 |   1.23%  0.50%\n"
        "100  |     100.0 ± 5.0  |    0.0% |  90   98  100  102  110 |   0.00%  0.00%\n");
}

TEST_CASE("a single run has no grid section, and the threshold is printed as given") {
  const std::vector<ReportRow> rows = {{{}, figures(12.5, 3.25, 50, 5, 10, 12, 15, 20), 0, {}}};
  CHECK(format_report({}, rows, 5) ==
        "tps avg ± stddev | <5 tps | min  q1  med  q3  max\n"
        "-----------------+--------+----------------------\n"
        "      12.5 ± 3.2 |  50.0% |   5  10   12  15   20\n");
}

TEST_CASE("a row whose grid values do not match the columns is refused") {
  const std::vector<ReportRow> rows = {{{"true"}, figures(1, 1, 1, 1, 1, 1, 1, 1), 0, {}}};
  CHECK_THROWS_AS(format_report({"sort", "flush"}, rows, 10), std::invalid_argument);
}

TEST_CASE("summary.csv: grid columns as given, then the figures with three decimals") {
  ScratchDir dir;
  const std::vector<ReportRow> rows = {
      {{"true", "256kB"}, figures(631.2449, 112.5, 0.3, 0, 580, 640.4, 690, 890), 0, {}},
      {{"false", "0"}, figures(157.0, 296.0, 66.2, -0.0, 0, 0, 120.5, 1510, 2.5, 1.0 / 3.0), 0, {}},
  };
  write_summary_csv(dir / "summary.csv", {"postgres.checkpoint_sorting", "postgres.checkpoint_flush_after"}, rows);
  CHECK(read_text(dir / "summary.csv") ==
        "postgres.checkpoint_sorting,postgres.checkpoint_flush_after,tps_mean,tps_stddev,threshold,"
        "pct_below_threshold,tps_min,tps_q1,tps_median,tps_q3,tps_max,skipped_pct,late_pct\n"
        "true,256kB,631.245,112.500,10.000,0.300,0.000,580.000,640.400,690.000,890.000,0.000,0.000\n"
        "false,0,157.000,296.000,10.000,66.200,0.000,0.000,0.000,120.500,1510.000,2.500,0.333\n");
  CHECK(dir.entries() == 1);  // written atomically: no temporary left
}
