// E3, full_page_writes and the shape of a checkpoint cycle
// (scenarios/e3-fpw.json, shortened: 8 clients at scale 10 in 256MB of
// shared buffers, checkpoint_timeout 30s, 65 s: one whole cycle, start to
// start, in which the 16,400 accounts pages are touched about twice over).
// With full_page_writes on, the first change to a page after a checkpoint
// starts logs the whole page: full-page images, and so WAL, per transaction
// are highest at the start of each cycle and decay through it; off, there
// are none, and less WAL per transaction.
#include <doctest/doctest.h>

#include <numeric>

#include "tests/cli/experiment_runs.h"

using namespace ckptsim::testing;

namespace {

// Per transaction, over the rows whose interval ends in (from, to]: system.csv's `column` per tps.
double per_transaction(const std::vector<double>& time, const std::vector<double>& tps, const std::vector<double>& rate,
                       double from, double to) {
  double sum = 0, transactions = 0;
  for (std::size_t i = 0; i < time.size(); ++i) {
    if (time[i] <= from || time[i] > to) continue;
    sum += rate[i];
    transactions += tps[i];
  }
  REQUIRE(transactions > 0);
  return sum / transactions;
}

}  // namespace

TEST_CASE("E3: full-page images and WAL per transaction are highest after each checkpoint starts and decay") {
  TempDir tmp("e3-fpw");
  const auto out = run_shipped("e3-fpw.json",
                               "--set pgbench.duration=65s --set pgbench.scale=10 --set postgres.shared_buffers=256MB "
                               "--set postgres.checkpoint_timeout=30s --set pgbench.clients=8 --set pgbench.threads=4",
                               tmp);
  const auto on = out / "full_page_writes=true", off = out / "full_page_writes=false";
  const auto time = csv_column(on / "system.csv", "time_s");
  const auto tps = csv_column(on / "progress.csv", "tps");
  const auto fpi = csv_column(on / "system.csv", "wal_fpi_per_s");
  const auto wal = csv_column(on / "system.csv", "wal_mb_per_s");
  const auto starts = csv_column(on / "checkpoints.csv", "start_s");
  REQUIRE(starts.size() >= 2);  // a whole cycle, start to start
  for (std::size_t c = 0; c + 1 < starts.size(); ++c) {
    const double from = starts[c], to = starts[c + 1], tenth = (to - from) / 10;
    CAPTURE(from);
    const double fpi_first = per_transaction(time, tps, fpi, from, from + tenth);
    const double fpi_last = per_transaction(time, tps, fpi, to - tenth, to);
    const double wal_first = per_transaction(time, tps, wal, from, from + tenth);
    const double wal_last = per_transaction(time, tps, wal, to - tenth, to);
    CAPTURE(fpi_first);
    CAPTURE(fpi_last);
    CHECK(fpi_first > 2 * fpi_last);
    CHECK(wal_first > 2 * wal_last);
  }
  // Off: no full-page image at all, and less WAL per transaction over the run.
  const auto off_fpi = csv_column(off / "system.csv", "wal_fpi_per_s");
  CHECK(std::accumulate(off_fpi.begin(), off_fpi.end(), 0.0) == 0.0);
  const auto wal_per_tx = [](const std::filesystem::path& point) {
    const auto s = summary_of(point);
    return s["pg_stat_wal"]["wal_bytes"].get<double>() / s["pgbench"]["transactions"].get<double>();
  };
  CHECK(wal_per_tx(on) > 3 * wal_per_tx(off));
}
