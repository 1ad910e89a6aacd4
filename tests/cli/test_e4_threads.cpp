// E4, pgbench's own client-side artefacts (scenarios/e4-threads.json, run as
// shipped: 30 s points): 64 throttled clients on one pgbench thread against
// one thread per client. Closing a connection (2 ms) holds its thread's
// loop, so on one thread the clients that finish delay the others: their
// transactions start late (lag, counted from the schedule under -R) and end
// late (latency). At the end of a -T run (the clients whose next start falls
// beyond the end close at once) as well as a -t one; not before the end.
#include <doctest/doctest.h>

#include "tests/cli/experiment_runs.h"

using namespace ckptsim::testing;

TEST_CASE("E4: with -j 1 the end's disconnects show up as the other clients' lag and latency, -T and -t alike") {
  TempDir tmp("e4-threads");
  const auto out = run_shipped("e4-threads.json", "", tmp);
  for (const char* end : {"T30", "t900"}) {
    CAPTURE(end);
    const auto shared = summary_of(out / (std::string("threads=1,end=") + end))["pgbench"];
    const auto apart = summary_of(out / (std::string("threads=64,end=") + end))["pgbench"];
    CAPTURE(shared.dump());
    CAPTURE(apart.dump());
    // One thread per client: a client waits for nobody; its lag stays below a round trip.
    CHECK(apart["lag_max_ms"].get<double>() < 0.2);
    // One thread: some transaction waited for at least one whole 2 ms disconnect.
    CHECK(shared["lag_max_ms"].get<double>() > 2.0);
    CHECK(shared["latency_max_ms"].get<double>() > 2.0);
    CHECK(apart["latency_max_ms"].get<double>() < 0.2);
    CHECK(shared["lag_avg_ms"].get<double>() > 10 * apart["lag_avg_ms"].get<double>());
  }
  // -T: the last second's latency and lag with -j 1 above one thread per client,
  // and the second before it untouched (the effect is the end's, not the run's).
  const auto lat1 = csv_column(out / "threads=1,end=T30" / "progress.csv", "latency_avg_ms");
  const auto lag1 = csv_column(out / "threads=1,end=T30" / "progress.csv", "lag_avg_ms");
  const auto lat64 = csv_column(out / "threads=64,end=T30" / "progress.csv", "latency_avg_ms");
  REQUIRE(lat1.size() == 30);
  REQUIRE(lat64.size() == 30);
  CAPTURE(lat1.back());
  CAPTURE(lat64.back());
  CHECK(lat1.back() > 1.5 * lat64.back());
  CHECK(lag1.back() > 0.02);
  CHECK(lag1[lag1.size() - 2] < 0.01);
  CHECK(lat1[lat1.size() - 2] == doctest::Approx(lat64[lat64.size() - 2]).epsilon(0.1));
}
