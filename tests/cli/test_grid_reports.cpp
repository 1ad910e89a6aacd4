// A grid's summary.csv, report.txt and summary-mean.csv, checked against the
// files each point folder holds (summary.json, checkpoints.csv): the grid's
// tables are rebuilt from the point folders alone.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "cli/report/grid_reports.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One timed checkpoint that completes (30 s + half of it) inside each 50 s point.
const char* kSortFlushGrid = R"({
  "postgres": {"version": "9.6", "shared_buffers": "32MB", "checkpoint_timeout": "30s",
               "checkpoint_completion_target": 0.5, "log_checkpoints": true},
  "pgbench": {"builtin": "tpcb-like", "scale": 10, "clients": 2, "threads": 1, "duration": "50s"},
  "grid": {"postgres.checkpoint_sorting": [false, true], "postgres.checkpoint_flush_after": [0, "256kB"]},
  "seed": 1
})";

double cell(const ckptsim::analysis::CsvTable& t, std::size_t row, const std::string& column) {
  const int c = t.column(column);
  REQUIRE_MESSAGE(c >= 0, column);
  return std::stod(t.rows[row][static_cast<std::size_t>(c)]);
}

json summary_of(const fs::path& point) { return json::parse(slurp(point / "summary.json")); }

}  // namespace

TEST_CASE("summary.csv: every figure a user compares, each as the point's own files give it") {
  TempDir tmp("grid-reports");
  write_text(tmp / "g.json", kSortFlushGrid);
  REQUIRE(run_ckptsim("run " + quoted(tmp / "g.json") + " --quiet --out " + quoted(tmp / "g"), tmp).exit_code == 0);
  const auto table = ckptsim::analysis::read_csv(tmp / "g" / "summary.csv");
  const std::vector<std::string> expected = {"postgres.checkpoint_sorting",
                                             "postgres.checkpoint_flush_after",
                                             "tps_mean",
                                             "tps_stddev",
                                             "threshold",
                                             "pct_below_threshold",
                                             "tps_min",
                                             "tps_q1",
                                             "tps_median",
                                             "tps_q3",
                                             "tps_max",
                                             "skipped_pct",
                                             "late_pct",
                                             "transactions",
                                             "latency_avg_ms",
                                             "latency_p50_ms",
                                             "latency_p90_ms",
                                             "latency_p99_ms",
                                             "latency_p99_9_ms",
                                             "lag_avg_ms",
                                             "checkpoints",
                                             "checkpoints_timed",
                                             "checkpoints_req",
                                             "checkpoint_write_s_mean",
                                             "checkpoint_sync_s_mean",
                                             "buffers_checkpoint_per_tx",
                                             "buffers_clean_per_tx",
                                             "maxwritten_clean_per_tx",
                                             "buffers_backend_per_tx",
                                             "buffers_alloc_per_tx",
                                             "wal_mb_per_tx",
                                             "wal_fpi_per_tx",
                                             "waits.backend_seconds",
                                             "waits.CPU",
                                             "waits.Client:ClientRead",
                                             "waits.IO:WALWrite",
                                             "waits.IO:WALSync",
                                             "waits.IO:WALInitWrite",
                                             "waits.IO:WALInitSync",
                                             "waits.IO:DataFileRead",
                                             "waits.IO:DataFileWrite",
                                             "waits.IO:DataFileExtend",
                                             "waits.IO:DataFileFlush",
                                             "waits.IO:DataFileSync",
                                             "waits.LWLock:WALWrite",
                                             "waits.LWLock:BufferContent",
                                             "waits.IPC:BufferIO",
                                             "waits.Timeout:CommitDelay",
                                             "waits.Lock:extend",
                                             "waits.Lock:tuple",
                                             "waits.Lock:transactionid"};
  CHECK(table.header == expected);
  const std::vector<std::string> points = {
      "checkpoint_sorting=false,checkpoint_flush_after=0", "checkpoint_sorting=false,checkpoint_flush_after=256kB",
      "checkpoint_sorting=true,checkpoint_flush_after=0", "checkpoint_sorting=true,checkpoint_flush_after=256kB"};
  REQUIRE(table.rows.size() == points.size());
  for (std::size_t r = 0; r < points.size(); ++r) {
    CAPTURE(points[r]);
    const json s = summary_of(tmp / "g" / points[r]);
    const double tx = s["pgbench"]["transactions"];
    REQUIRE(tx > 0);
    CHECK(cell(table, r, "transactions") == tx);
    CHECK(cell(table, r, "latency_p99_ms") == doctest::Approx(s["pgbench"]["latency_ms"]["p99"].get<double>()));
    CHECK(cell(table, r, "latency_p99_9_ms") == doctest::Approx(s["pgbench"]["latency_ms"]["p99_9"].get<double>()));
    const json& bg = s["pg_stat_bgwriter"];
    for (const char* counter :
         {"buffers_checkpoint", "buffers_clean", "maxwritten_clean", "buffers_backend", "buffers_alloc"}) {
      CAPTURE(counter);
      CHECK(cell(table, r, std::string(counter) + "_per_tx") ==
            doctest::Approx(bg[counter].get<double>() / tx).epsilon(1e-5));
    }
    CHECK(cell(table, r, "wal_fpi_per_tx") ==
          doctest::Approx(s["pg_stat_wal"]["wal_fpi"].get<double>() / tx).epsilon(1e-5));
    CHECK(cell(table, r, "wal_mb_per_tx") ==
          doctest::Approx(s["pg_stat_wal"]["wal_bytes"].get<double>() / 1048576 / tx).epsilon(1e-4));
    CHECK(cell(table, r, "waits.LWLock:WALWrite") ==
          doctest::Approx(s["waits"]["events"]["LWLock:WALWrite"].get<double>()).epsilon(1e-3));
    // The checkpoints from another file: checkpoints.csv has a row per checkpoint started,
    // its write and sync phases' ends once they ended.
    const auto ckpts = ckptsim::analysis::read_csv(tmp / "g" / points[r] / "checkpoints.csv");
    REQUIRE(ckpts.rows.size() == 1);
    CHECK(cell(table, r, "checkpoints") == 1);
    CHECK(cell(table, r, "checkpoints_timed") == 1);
    CHECK(cell(table, r, "checkpoints_req") == 0);
    CHECK(std::abs(cell(table, r, "checkpoint_write_s_mean") -
                   (cell(ckpts, 0, "write_end_s") - cell(ckpts, 0, "start_s"))) < 0.002);
    CHECK(std::abs(cell(table, r, "checkpoint_sync_s_mean") -
                   (cell(ckpts, 0, "sync_end_s") - cell(ckpts, 0, "write_end_s"))) < 0.002);
  }
  // report.txt ends with the E1 thread's table, sorted and flushed first, each cell from summary.csv's row.
  const std::string report = slurp(tmp / "g" / "report.txt");
  const std::size_t at = report.find("sort/flush : tps avg & stddev (percent of time below 10.0 tps)\n\n");
  REQUIRE(at != std::string::npos);
  // Each row's label, then its cell's mean and stddev (padded to the column's widths), in order.
  std::istringstream lines(report.substr(at));
  std::vector<std::string> seen;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string sort, slash, flush, bar, mean, pm, stddev;
    if (!(words >> sort >> slash >> flush >> bar >> mean >> pm >> stddev) || slash != "/" || pm != "±") continue;
    seen.push_back(sort + "/" + flush + " " + mean + " " + stddev);
  }
  auto expect = [&](const char* combination, std::size_t r) {
    return fmt::format("{} {:.0f} {:.0f}", combination, cell(table, r, "tps_mean"), cell(table, r, "tps_stddev"));
  };
  CHECK(seen ==
        std::vector<std::string>{expect("on/on", 3), expect("on/off", 2), expect("off/on", 1), expect("off/off", 0)});
  CHECK_FALSE(fs::exists(tmp / "g" / "summary-mean.csv"));  // no repeats
}

TEST_CASE("summary-mean.csv: the mean and spread of a point's repeats, from the repeats' own folders") {
  TempDir tmp("grid-repeats");
  std::string single = kSortFlushGrid;
  single.erase(single.find("  \"grid\""), single.find("  \"seed\"") - single.find("  \"grid\""));
  write_text(tmp / "s.json", single);
  // Two repeats of one point: the same scenario with two seeds.
  for (const char* seed : {"1", "2"}) {
    REQUIRE(run_ckptsim("run " + quoted(tmp / "s.json") + " --quiet --set pgbench.duration=20s --seed " + seed +
                            " --out " + quoted(tmp / (std::string("r") + seed)),
                        tmp)
                .exit_code == 0);
  }
  std::vector<ckptsim::analysis::ReportRow> rows = {ckptsim::cli::point_report_row(tmp / "r1", {"true"}, 1),
                                                    ckptsim::cli::point_report_row(tmp / "r2", {"true"}, 2)};
  fs::create_directories(tmp / "g");
  ckptsim::cli::write_grid_tables(tmp / "g", {"postgres.checkpoint_sorting"}, rows);
  const auto summary = ckptsim::analysis::read_csv(tmp / "g" / "summary.csv");
  REQUIRE(summary.rows.size() == 2);
  CHECK(summary.header[1] == "repeat");
  CHECK(cell(summary, 1, "repeat") == 2);
  const auto mean = ckptsim::analysis::read_csv(tmp / "g" / "summary-mean.csv");
  REQUIRE(mean.rows.size() == 1);
  CHECK(cell(mean, 0, "repeats") == 2);
  const double a = summary_of(tmp / "r1")["stability"]["tps_mean"], b = summary_of(tmp / "r2")["stability"]["tps_mean"];
  REQUIRE(a != b);  // another seed, another run
  CHECK(cell(mean, 0, "tps_mean_mean") == doctest::Approx((a + b) / 2).epsilon(1e-5));
  CHECK(cell(mean, 0, "tps_mean_stddev") == doctest::Approx(std::abs(a - b) / std::sqrt(2.0)).epsilon(1e-3));
  CHECK(cell(mean, 0, "tps_mean_min") == doctest::Approx(std::min(a, b)).epsilon(1e-5));
  CHECK(cell(mean, 0, "tps_mean_max") == doctest::Approx(std::max(a, b)).epsilon(1e-5));
  const double ta = summary_of(tmp / "r1")["pgbench"]["transactions"],
               tb = summary_of(tmp / "r2")["pgbench"]["transactions"];
  CHECK(cell(mean, 0, "transactions_mean") == doctest::Approx((ta + tb) / 2));
  // The report lists each repeat.
  CHECK(ckptsim::cli::grid_report_text({"postgres.checkpoint_sorting"}, rows, 10)
            .starts_with("postgres.checkpoint_sorting  repeat |"));
}
