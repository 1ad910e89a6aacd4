// tests/analysis/test_pg15_recorded_logs.cpp: the -P logs and aggregate logs
// of real pgbench 15 runs against a real PostgreSQL 15 server, as
// scripts/validate-pg recorded them (tests/data/pg15-recorded-logs.json), read
// with the readers `ckptsim analyze` uses.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/pgbench_logs.h"
#include "analysis/tps_input.h"
#include "run_folder_names.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::kRunFolder;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

namespace {

nlohmann::json recorded_cases() {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/pg15-recorded-logs.json");
  REQUIRE(in.good());
  const nlohmann::json recorded = nlohmann::json::parse(in);
  return recorded.at("cases");
}

// "tps = 1234.567890 (without initial connection time)" -> 1234.56789
double tps_of_summary_line(const std::string& line) { return std::stod(line.substr(line.find('=') + 1)); }

}  // namespace

TEST_CASE("every recorded real run's -P log and per-thread aggregate logs read as pgbench 15 wrote them") {
  const nlohmann::json cases = recorded_cases();
  REQUIRE(cases.size() >= 5);
  for (const auto& c : cases) {
    const std::string name = c.at("name");
    CAPTURE(name);
    REQUIRE(c.contains("real_progress_log"));
    const std::int64_t clients = c.at("pgbench").at("clients"), threads = c.at("pgbench").at("threads");
    const std::int64_t processed = clients * c.at("pgbench").at("transactions").get<std::int64_t>();

    std::istringstream stderr_text(c.at("real_progress_log").get<std::string>());
    const PgbenchReadings progress = read_progress_log(stderr_text, name, 1);
    CHECK(progress.format == "pgbench -P log (15+)");
    REQUIRE(!progress.readings.empty());

    // The aggregate logs count every transaction once across the threads' files, but
    // for those of the last, unfinished interval: pgbench 15's threadRun ends with a
    // doLog() that only writes the intervals that have passed (pgbench.c, REL_15).
    ScratchDir dir;
    std::vector<std::filesystem::path> files;
    for (const auto& [file, text] : c.at("real_aggregate_logs").items()) {
      files.push_back(dir / file);
      write_text(files.back(), text.get<std::string>());
    }
    CHECK(static_cast<std::int64_t>(files.size()) == threads);
    const PgbenchReadings aggregate = read_aggregate_logs(files);
    CHECK(aggregate.format == "pgbench aggregate log (15+)");
    CHECK(aggregate.interval_s == 1.0);
    const double summary_tps = tps_of_summary_line(c.at("real_tps_line"));
    CHECK(aggregate.transactions < processed);
    CHECK(static_cast<double>(processed - aggregate.transactions) <= 1.25 * summary_tps * aggregate.interval_s);

    // The -P lines' mean rate is the final summary's tps, the partial last second aside.
    if (progress.readings.size() >= 5) {
      const double sum = std::accumulate(progress.readings.begin(), progress.readings.end(), 0.0,
                                         [](double s, const TimedTps& r) { return s + r.tps; });
      CHECK(sum / static_cast<double>(progress.readings.size()) == doctest::Approx(summary_tps).epsilon(0.15));
    }
  }
}

TEST_CASE("analyze's stability figures of a recorded real run agree between its -P log and its aggregate logs") {
  const nlohmann::json cases = recorded_cases();
  const auto longest = std::max_element(cases.begin(), cases.end(), [](const auto& a, const auto& b) {
    return a.at("real_progress_log").template get<std::string>().size() <
           b.at("real_progress_log").template get<std::string>().size();
  });
  ScratchDir dir;
  write_text(dir / "pgbench-stderr.log", longest->at("real_progress_log").get<std::string>());
  const TpsInput from_progress = read_tps_input(kRunFolder, {dir / "pgbench-stderr.log"});
  std::vector<std::filesystem::path> logs;
  for (const auto& [file, text] : longest->at("real_aggregate_logs").items()) {
    logs.push_back(dir / file);
    write_text(logs.back(), text.get<std::string>());
  }
  const TpsInput from_aggregate = read_tps_input(kRunFolder, logs);
  REQUIRE(from_progress.tps.size() >= 5);
  // Both cover the run second by second; -P's seconds count from the start, the
  // aggregate's from the epoch second boundary, so they may differ by one interval.
  CHECK(std::abs(static_cast<long>(from_progress.tps.size()) - static_cast<long>(from_aggregate.tps.size())) <= 1);
  const auto mean = [](const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  };
  CHECK(mean(from_progress.tps) == doctest::Approx(mean(from_aggregate.tps)).epsilon(0.15));
}
