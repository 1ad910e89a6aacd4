// tests/analysis/test_grid_table.cpp: the E1 thread's sort/flush table,
// summary-mean.csv across repeats, and summary.csv's figures and repeat
// column, exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <string>
#include <vector>

#include "analysis/repeat_means.h"
#include "analysis/report.h"
#include "analysis/sort_flush_table.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::read_text;
using ckptsim::analysis::testing::ScratchDir;

namespace {

Stability judged(double mean, double stddev, double below, double skipped = 0, double late = 0) {
  return Stability{mean, stddev, 10, below, 0, 0, mean, 0, 2 * mean, skipped, late};
}

ReportRow point(std::vector<std::string> values, Stability s, int repeat = 0, std::vector<Figure> figures = {}) {
  return ReportRow{.values = std::move(values), .stability = s, .repeat = repeat, .figures = std::move(figures)};
}

const std::vector<std::string> kE1Grid = {"test", "postgres.checkpoint_sorting", "postgres.checkpoint_flush_after"};

}  // namespace

TEST_CASE("a sort x flush grid with two test types: the E1 thread's table, rows on/on to off/off") {
  // Grid order as a scenario lists it (sorting false first, flush 0 first): the table reorders the rows.
  const std::vector<ReportRow> rows = {
      point({"c1", "false", "0"}, judged(154.2, 251.3, 61.5)),
      point({"c1", "false", "256kB"}, judged(157, 296, 66.2)),
      point({"c1", "true", "0"}, judged(470, 340, 21.7)),
      point({"c1", "true", "256kB"}, judged(564, 148, 0.1)),
      point({"j2c4R400", "false", "0"}, judged(199.3, 512.1, 82.5, 10.5, 2)),
      point({"j2c4R400", "false", "256kB"}, judged(173, 521, 83.0, 12, 1.25)),
      point({"j2c4R400", "true", "0"}, judged(398, 93, 8.4, 1.5, 0.75)),
      point({"j2c4R400", "true", "256kB"}, judged(400, 20, 0.0, 0, 0.25)),
  };
  const auto table = sort_flush_table(kE1Grid, rows, 10);
  REQUIRE(table);
  // The rate-limited column adds skipped + late; "±" and the parentheses line up per column.
  CHECK(format_sort_flush_table(*table) ==
        "sort/flush : tps avg & stddev (percent of time below 10.0 tps)\n"
        "\n"
        "sort / flush | c1                | j2c4R400\n"
        "-------------+-------------------+--------------------------------------\n"
        "on  / on     | 564 ± 148 ( 0.1%) | 400 ±  20 ( 0.0%)  0.25% skipped+late\n"
        "on  / off    | 470 ± 340 (21.7%) | 398 ±  93 ( 8.4%)  2.25% skipped+late\n"
        "off / on     | 157 ± 296 (66.2%) | 173 ± 521 (83.0%) 13.25% skipped+late\n"
        "off / off    | 154 ± 251 (61.5%) | 199 ± 512 (82.5%) 12.50% skipped+late\n");
}

TEST_CASE("the sort/flush table: a flush axis with two sizes names them; setting axes label test types key=value") {
  const std::vector<std::string> grid = {"postgres.checkpoint_sorting", "postgres.checkpoint_flush_after",
                                         "pgbench.clients"};
  const std::vector<ReportRow> rows = {
      point({"true", "0", "1"}, judged(1, 1, 1)),     point({"true", "256kB", "1"}, judged(2, 1, 1)),
      point({"true", "2MB", "1"}, judged(3, 1, 1)),   point({"true", "0", "4"}, judged(4, 1, 1)),
      point({"true", "256kB", "4"}, judged(5, 1, 1)), point({"true", "2MB", "4"}, judged(6, 1, 1)),
  };
  const auto table = sort_flush_table(grid, rows, 5);
  REQUIRE(table);
  // Sorting off has no point: its rows are left out.
  CHECK(table->combinations == std::vector<std::string>{"on  / 256kB", "on  / 2MB", "on  / off"});
  CHECK(table->test_types == std::vector<std::string>{"clients=1", "clients=4"});
  CHECK(table->cells[0][1] == "5 ± 1 (1.0%)");
  CHECK(table->caption == "sort/flush : tps avg & stddev (percent of time below 5.0 tps)");
  CHECK_FALSE(sort_flush_table({"postgres.checkpoint_sorting", "pgbench.clients"}, rows, 10));
}

TEST_CASE("the sort/flush table with repeats: each cell the mean of its repeats, and a line saying so") {
  const std::vector<std::string> grid = {"postgres.checkpoint_sorting", "postgres.checkpoint_flush_after"};
  const std::vector<ReportRow> rows = {
      point({"true", "256kB"}, judged(500, 100, 1), 1),
      point({"false", "0"}, judged(100, 300, 60), 1),
      point({"true", "256kB"}, judged(600, 140, 2), 2),
      point({"false", "0"}, judged(200, 200, 70), 2),
  };
  const auto table = sort_flush_table(grid, rows, 10);
  REQUIRE(table);
  CHECK(table->test_types == std::vector<std::string>{"tps"});
  CHECK(table->cells == std::vector<std::vector<std::string>>{{"550 ± 120 ( 1.5%)"}, {"150 ± 250 (65.0%)"}});
  CHECK(table->note == "each cell: the mean over the point's repeats (up to 2)");
}

TEST_CASE("summary-mean.csv: per point, the mean, sample stddev, min and max of every figure across repeats") {
  ScratchDir dir;
  const std::vector<ReportRow> rows = {
      point({"true"}, judged(500, 100, 1), 1, {{"latency_p99_ms", 20, 3}, {"checkpoints", 3, 0}}),
      point({"false"}, judged(100, 300, 60), 1, {{"latency_p99_ms", 90, 3}, {"checkpoints", 2, 0}}),
      point({"true"}, judged(600, 140, 2), 2, {{"latency_p99_ms", 30, 3}, {"checkpoints", 4, 0}}),
      point({"false"}, judged(200, 200, 70), 2, {{"latency_p99_ms", 80, 3}, {"checkpoints", 2, 0}}),
      point({"true"}, judged(700, 120, 3), 3, {{"latency_p99_ms", 40, 3}, {"checkpoints", 4, 0}}),
  };
  write_summary_mean_csv(dir / "summary-mean.csv", {"postgres.checkpoint_sorting"}, rows);
  const std::string text = read_text(dir / "summary-mean.csv");
  const std::string header = text.substr(0, text.find('\n'));
  CHECK(
      header.starts_with("postgres.checkpoint_sorting,repeats,tps_mean_mean,tps_mean_stddev,tps_mean_min,"
                         "tps_mean_max,tps_stddev_mean,"));
  CHECK(
      header.ends_with(",latency_p99_ms_mean,latency_p99_ms_stddev,latency_p99_ms_min,latency_p99_ms_max,"
                       "checkpoints_mean,checkpoints_stddev,checkpoints_min,checkpoints_max"));
  // true: tps_mean 500, 600, 700 -> mean 600, sample stddev 100; p99 20, 30, 40 -> 30 ± 10;
  // checkpoints 3, 4, 4 -> 3.667 ± 0.577 (n - 1 = 2), min and max with the figure's own 0 decimals.
  CHECK(text.find("\ntrue,3,600.000,100.000,500.000,700.000,120.000,20.000,100.000,140.000,") != std::string::npos);
  CHECK(text.find(",30.000,10.000,20.000,40.000,3.667,0.577,3,4\n") != std::string::npos);
  // false: 100 and 200 -> 150 ± 70.711; checkpoints 2, 2 -> 2 ± 0.
  CHECK(text.find("\nfalse,2,150.000,70.711,100.000,200.000,") != std::string::npos);
  CHECK(text.ends_with(",85.000,7.071,80.000,90.000,2.000,0.000,2,2\n"));
  CHECK(dir.entries() == 1);
}

TEST_CASE(
    "summary.csv with repeats and figures: repeat after the grid columns, figures with their decimals; read back") {
  ScratchDir dir;
  const std::vector<ReportRow> rows = {
      point({"true"}, judged(500, 100, 1), 1, {{"transactions", 123456, 0}, {"wal_fpi_per_tx", 1.0 / 3.0, 6}}),
      point({"true"}, judged(600, 140, 2), 2, {{"transactions", 234567, 0}, {"wal_fpi_per_tx", 0.5, 6}}),
  };
  write_summary_csv(dir / "summary.csv", {"postgres.checkpoint_sorting"}, rows);
  CHECK(read_text(dir / "summary.csv") ==
        "postgres.checkpoint_sorting,repeat,tps_mean,tps_stddev,threshold,pct_below_threshold,tps_min,tps_q1,"
        "tps_median,tps_q3,tps_max,skipped_pct,late_pct,transactions,wal_fpi_per_tx\n"
        "true,1,500.000,100.000,10.000,1.000,0.000,0.000,500.000,0.000,1000.000,0.000,0.000,123456,0.333333\n"
        "true,2,600.000,140.000,10.000,2.000,0.000,0.000,600.000,0.000,1200.000,0.000,0.000,234567,0.500000\n");
  const SummaryCsv back = read_summary_csv(dir / "summary.csv");
  CHECK(back.grid_columns == std::vector<std::string>{"postgres.checkpoint_sorting"});
  REQUIRE(back.rows.size() == 2);
  CHECK(back.rows[1].repeat == 2);
  CHECK(back.rows[1].stability.tps_stddev == 140);
  CHECK(find_figure(back.rows[0], "wal_fpi_per_tx")->value == doctest::Approx(0.333333));
}

TEST_CASE("a figure a run does not have (no checkpoint completed) is an empty cell, read back as none, left out of means") {
  ScratchDir dir;
  const double none = std::numeric_limits<double>::quiet_NaN();
  const std::vector<ReportRow> rows = {
      point({"true"}, judged(500, 100, 1), 1, {{"checkpoint_write_s_mean", none, 3}}),
      point({"true"}, judged(600, 140, 2), 2, {{"checkpoint_write_s_mean", 27.0, 3}}),
      point({"false"}, judged(100, 10, 3), 1, {{"checkpoint_write_s_mean", none, 3}}),
  };
  write_summary_csv(dir / "summary.csv", {"postgres.checkpoint_sorting"}, rows);
  const std::string text = read_text(dir / "summary.csv");
  CHECK(text.find("\ntrue,1,500.000,100.000,10.000,1.000,0.000,0.000,500.000,0.000,1000.000,0.000,0.000,\n") !=
        std::string::npos);  // 0.000 before
  CHECK(text.find(",27.000\n") != std::string::npos);
  const SummaryCsv back = read_summary_csv(dir / "summary.csv");
  REQUIRE(back.rows.size() == 3);
  CHECK(std::isnan(find_figure(back.rows[0], "checkpoint_write_s_mean")->value));
  CHECK(find_figure(back.rows[1], "checkpoint_write_s_mean")->value == doctest::Approx(27.0));
  // Across repeats: the mean of the repeats that have it; none: empty.
  write_summary_mean_csv(dir / "summary-mean.csv", {"postgres.checkpoint_sorting"}, rows);
  const std::string means = read_text(dir / "summary-mean.csv");
  CHECK(means.find(",27.000,0.000,27.000,27.000\n") != std::string::npos);
  CHECK(means.ends_with(",,,,\n"));
}

TEST_CASE("the grid table gains latency, checkpoint and per-transaction sections when the rows carry them") {
  namespace fig = figure_names;
  const std::vector<Figure> figures = {{fig::kLatencyP50, 2.21, 3},
                                       {fig::kLatencyP99, 133.12, 3},
                                       {fig::kCheckpointsTimed, 12, 0},
                                       {fig::kCheckpointsReq, 1, 0},
                                       {fig::kBuffersCheckpointPerTx, 0.5, 6},
                                       {fig::kBuffersCleanPerTx, 0.25, 6},
                                       {fig::kMaxwrittenCleanPerTx, 0.0012, 6},
                                       {fig::kBuffersBackendPerTx, 0.02, 6},
                                       {fig::kWalMbPerTx, 0.0125, 6},
                                       {fig::kWalFpiPerTx, 1.5, 6}};
  const std::vector<ReportRow> rows = {point({"100"}, judged(500, 10, 0), 0, figures)};
  CHECK(format_report({"bgwriter_lru_maxpages"}, rows, 10) ==
        "bgwriter_lru_maxpages | tps avg ± stddev | <10 tps | min  q1  med  q3   max | p50 ms  p99 ms | ckpt time  "
        "ckpt req | ckpt/tx  clean/tx  maxw/tx  backend/tx | WAL kB/tx  FPI/tx\n"
        "----------------------+------------------+---------+------------------------+----------------+-----------"
        "----------+----------------------------------------+------------------\n"
        "100                   |     500.0 ± 10.0 |    0.0% |   0   0  500   0  1000 |    2.2   133.1 |        12 "
        "        1 |   0.500     0.250   0.0012       0.020 |      12.8   1.500\n");
}
