// pgbench's output formats, exactly as pgbench prints them.
#include <doctest/doctest.h>

#include "models/pgbench/latency_histogram.h"
#include "models/pgbench/report.h"

using namespace ckptsim;
using namespace ckptsim::pgbench;

namespace {
TransactionSums two_transactions() {
  TransactionSums s;
  s.add(8 * sim::kMillisecond, 1 * sim::kMillisecond, false);
  s.add(12 * sim::kMillisecond, 3 * sim::kMillisecond, true);
  s.add_skipped();
  return s;
}
}  // namespace

TEST_CASE("-P line: pgbench 15 adds ', 0 failed'; -R adds lag, -R with -L adds skipped") {
  PgbenchConfig c;
  const TransactionSums s = two_transactions();
  CHECK(progress_line(15, 5.0, 2.0, s, c) == "progress: 5.0 s, 2.0 tps, lat 10.000 ms stddev 2.000, 0 failed");
  CHECK(progress_line(9, 5.0, 2.0, s, c) == "progress: 5.0 s, 2.0 tps, lat 10.000 ms stddev 2.000");
  c.rate = 400;
  c.latency_limit = 100 * sim::kMillisecond;
  CHECK(progress_line(15, 1.0, 2.0, s, c) ==
        "progress: 1.0 s, 2.0 tps, lat 10.000 ms stddev 2.000, 0 failed, lag 2.000 ms, 1 skipped");
}

TEST_CASE("final summary follows pgbench 15, skipped over all scheduled, late over processed") {
  PgbenchConfig c;
  c.builtin = Builtin::SimpleUpdate;
  c.scale = 120;
  c.clients = 4;
  c.threads = 2;
  c.protocol = Protocol::Prepared;
  c.rate = 400;
  c.latency_limit = 10 * sim::kMillisecond;
  const std::string text = final_summary(1500, c, two_transactions(), 4000);
  CHECK(text ==
        "transaction type: <builtin: simple update>\n"
        "scaling factor: 120\n"
        "query mode: prepared\n"
        "number of clients: 4\n"
        "number of threads: 2\n"
        "maximum number of tries: 1\n"
        "duration: 4000 s\n"
        "number of transactions actually processed: 2\n"
        "number of failed transactions: 0 (0.000%)\n"
        "number of transactions skipped: 1 (33.333%)\n"
        "number of transactions above the 10.0 ms latency limit: 1/2 (50.000%)\n"
        "latency average = 10.000 ms\n"
        "latency stddev = 2.000 ms\n"
        "rate limit schedule lag: avg 2.000 (max 3.000) ms\n"
        "initial connection time = 0.000 ms\n"
        "tps = 0.000500 (without initial connection time)\n");
}

TEST_CASE("final summary of 9.6: <builtin: >, skipped and late over all scheduled with \" %\", two tps lines") {
  PgbenchConfig c;
  c.builtin = Builtin::SimpleUpdate;
  c.scale = 120;
  c.clients = 4;
  c.threads = 2;
  c.protocol = Protocol::Prepared;
  c.rate = 400;
  c.latency_limit = 10 * sim::kMillisecond;
  CHECK(final_summary(906, c, two_transactions(), 4000) ==
        "transaction type: <builtin: simple update>\n"
        "scaling factor: 120\n"
        "query mode: prepared\n"
        "number of clients: 4\n"
        "number of threads: 2\n"
        "duration: 4000 s\n"
        "number of transactions actually processed: 2\n"
        "number of transactions skipped: 1 (33.333 %)\n"
        "number of transactions above the 10.0 ms latency limit: 1 (33.333 %)\n"
        "latency average = 10.000 ms\n"
        "latency stddev = 2.000 ms\n"
        "rate limit schedule lag: avg 2.000 (max 3.000) ms\n"
        "tps = 0.000500 (including connections establishing)\n"
        "tps = 0.000500 (excluding connections establishing)\n");
}

TEST_CASE("final summary of 14 gives the initial connection time and one tps line; 9.5 names scripts plainly") {
  PgbenchConfig c;
  c.scale = 10;
  const std::string v14 = final_summary(1400, c, two_transactions(), 100);
  CHECK(v14.find("initial connection time = 0.000 ms\ntps = 0.020000 (without initial connection time)\n") !=
        std::string::npos);
  CHECK(v14.find("maximum number of tries") == std::string::npos);
  CHECK(v14.find("failed") == std::string::npos);
  const std::string v95 = final_summary(905, c, two_transactions(), 100);
  CHECK(v95.starts_with("transaction type: TPC-B (sort of)\n"));
  CHECK(v95.find("latency average: 10.000 ms\nlatency stddev: 2.000 ms\n") != std::string::npos);
  // Nothing after the processed count when no transaction ran, before 15.
  CHECK(final_summary(906, c, TransactionSums{}, 100).ends_with("number of transactions actually processed: 0\n"));
}

TEST_CASE("aggregate log line: pgbench 15's 15 columns, latencies in µs; up to 14 lag only with -R, skipped with -L") {
  PgbenchConfig c;
  // sum 20000 µs, sum of squares 8000^2 + 12000^2 = 208e6, min 8000, max 12000; lag 4000, 1e6+9e6.
  CHECK(aggregate_line(1500, 1439805600, two_transactions(), c) ==
        "1439805600 2 20000 208000000 8000 12000 4000 10000000 1000 3000 1 0 0 0 0");
  CHECK(aggregate_line(1500, 1439805601, TransactionSums{}, c) == "1439805601 0 0 0 0 0 0 0 0 0 0 0 0 0 0");
  CHECK(aggregate_line(906, 1439805600, two_transactions(), c) == "1439805600 2 20000 208000000 8000 12000");
  c.rate = 400;
  CHECK(aggregate_line(1400, 1439805600, two_transactions(), c) ==
        "1439805600 2 20000 208000000 8000 12000 4000 10000000 1000 3000");
  c.latency_limit = 10 * sim::kMillisecond;
  CHECK(aggregate_line(906, 1439805600, two_transactions(), c) ==
        "1439805600 2 20000 208000000 8000 12000 4000 10000000 1000 3000 1");
}

TEST_CASE("version_num: the release without its minor version") {
  CHECK(version_num("9.6") == 906);
  CHECK(version_num("9.6.24") == 906);
  CHECK(version_num("9.0") == 900);
  CHECK(version_num("15") == 1500);
  CHECK(version_num("15.4") == 1500);
}

TEST_CASE("latency percentiles are within 1.1% above the true value; max is exact") {
  LatencyHistogram h;
  for (int ms = 1; ms <= 1000; ++ms) h.add(ms * sim::kMillisecond);
  CHECK(h.count() == 1000);
  CHECK(h.percentile_ms(50) >= 500.0);
  CHECK(h.percentile_ms(50) <= 500.0 * 1.011);
  CHECK(h.percentile_ms(99) >= 990.0);
  CHECK(h.percentile_ms(99) <= 990.0 * 1.011);
  CHECK(h.max_ms() == 1000.0);
  CHECK(h.percentile_ms(100) == 1000.0);  // capped at the exact max
  h.clear();
  CHECK(h.percentile_ms(50) == 0.0);
}

TEST_CASE("-P line of an empty second: -nan up to 9.6 (0.0 / 0 unguarded), 0.000 from 10") {
  PgbenchConfig c;
  const TransactionSums empty;
  CHECK(progress_line(9, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat -nan ms stddev -nan");
  CHECK(progress_line(10, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat 0.000 ms stddev 0.000");
  CHECK(progress_line(14, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat 0.000 ms stddev 0.000");
  CHECK(progress_line(15, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat 0.000 ms stddev 0.000, 0 failed");
  c.rate = 400;
  CHECK(progress_line(9, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat -nan ms stddev -nan, lag -nan ms");
  CHECK(progress_line(10, 7.0, 0.0, empty, c) == "progress: 7.0 s, 0.0 tps, lat 0.000 ms stddev 0.000, lag 0.000 ms");
  // 9.6 counts a skipped transaction in cnt: 0 / 1 is 0.000, not -nan.
  c.latency_limit = 10 * sim::kMillisecond;
  TransactionSums only_skipped;
  only_skipped.add_skipped();
  CHECK(progress_line(9, 7.0, 0.0, only_skipped, c) ==
        "progress: 7.0 s, 0.0 tps, lat 0.000 ms stddev 0.000, lag 0.000 ms, 1 skipped");
}

TEST_CASE("the whole run's latency percentiles span every interval, within the histogram's precision") {
  // 10000 transactions of 0.1, 0.2, ... 1000 ms, over 10 progress intervals
  // that each clear their own histogram: p50 is 500 ms, p90 900, p99 990,
  // p99.9 999. Reported: between the true value less 1 µs and 1/64 above.
  TransactionStats stats;
  for (int i = 1; i <= 10000; ++i) {
    stats.record(i * 100 * sim::kMicrosecond, 0, false);
    if (i % 1000 == 0) {
      stats.take_interval();
      stats.clear_interval_histogram();
    }
  }
  const LatencyHistogram& h = stats.total_histogram();
  CHECK(h.count() == 10000);
  for (const auto& [p, truth] : {std::pair{50.0, 500.0}, {90.0, 900.0}, {99.0, 990.0}, {99.9, 999.0}}) {
    CAPTURE(p);
    CHECK(h.percentile_ms(p) >= truth - 0.001);
    CHECK(h.percentile_ms(p) <= truth * (1 + 1.0 / 64));
  }
  CHECK(h.max_ms() == 1000.0);
  CHECK(stats.interval_histogram().count() == 0);
}
