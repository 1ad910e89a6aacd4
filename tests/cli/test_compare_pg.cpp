// The comparison behind scripts/validate-pg, on counters recorded from a real
// PostgreSQL 15 (tests/data/pg15-recorded.json, written by the script).
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cli/commands/compare_pg.h"
#include "tests/cli/run_helpers.h"

using ckptsim::cli::compare_case;
using ckptsim::cli::Comparison;
using nlohmann::json;

namespace {
json recorded() {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/pg15-recorded.json");
  return json::parse(in);
}
const json& find_case(const json& r, const std::string& name) {
  for (const auto& c : r["cases"])
    if (c["name"] == name) return c;
  throw std::runtime_error("no case " + name);
}
}  // namespace

TEST_CASE("the recorded file holds the real counters of every case") {
  const json r = recorded();
  REQUIRE(r["cases"].size() == 7);
  const json& c = find_case(r, "select-only sb=16MB");
  // pgbench -S -c 4 -t 20000: 80000 transactions of 4 page accesses (root, internal, leaf, heap).
  CHECK(c["real"]["transactions"] == 80000);
  const double accesses = c["real"]["blks_hit"].get<double>() + c["real"]["blks_read"].get<double>();
  CHECK(accesses / 80000 == doctest::Approx(4.0).epsilon(0.01));
}

TEST_CASE("a case compared with itself is within every target, with zero difference") {
  const json r = recorded();
  const json& c = find_case(r, "simple-update lru_maxpages=100");
  const auto rows = compare_case("x", "simple-update", c["real"], c["real"]);
  REQUIRE(rows.size() == 7);  // hit ratio; alloc, checkpoint, clean, backend, fpi per tx; checkpoints
  for (const Comparison& row : rows) {
    CHECK_MESSAGE(row.within(), row.metric);
    CHECK(row.difference() == 0.0);
  }
  // select-only cases are judged on the hit ratio and buffers_alloc only.
  CHECK(compare_case("y", "select-only", c["real"], c["real"]).size() == 2);
}

TEST_CASE("targets: hit ratio within 2 points, per-transaction counters within 20%") {
  const json r = recorded();
  json real = find_case(r, "simple-update lru_maxpages=0")["real"];
  json sim = real;
  // 3 points fewer hits: blks_hit lowered so that hit/(hit+read) drops by 3 points.
  const double hit = real["blks_hit"], read = real["blks_read"];
  const double ratio = hit / (hit + read) - 0.03;
  sim["blks_hit"] = ratio * read / (1 - ratio);
  sim["buffers_backend"] = real["buffers_backend"].get<double>() * 1.25;
  sim["wal_fpi"] = real["wal_fpi"].get<double>() * 0.85;
  const auto rows = compare_case("x", "simple-update", real, sim);
  auto row = [&](const std::string& metric) {
    for (const auto& r2 : rows)
      if (r2.metric == metric) return r2;
    throw std::runtime_error(metric);
  };
  CHECK(row("hit ratio %").difference() == doctest::Approx(-3.0));
  CHECK_FALSE(row("hit ratio %").within());
  CHECK(row("buffers_backend / tx").difference() == doctest::Approx(0.25));
  CHECK_FALSE(row("buffers_backend / tx").within());
  CHECK(row("wal_fpi / tx").within());        // -15%
  CHECK(row("buffers_clean / tx").within());  // 0 on both sides (bgwriter off)
  const std::string table = ckptsim::cli::format_comparisons(rows);
  CHECK(table.find("5 of 7 figures within target") != std::string::npos);
  CHECK(table.find("MISS") != std::string::npos);
}

TEST_CASE("a run's summary.json maps onto the same flat counters") {
  const json summary = {{"pgbench", {{"transactions", 10}}},
                        {"pg_stat_bgwriter", {{"buffers_clean", 3}, {"buffers_alloc", 7}}},
                        {"pg_stat_database", {{"blks_hit", 90}, {"blks_read", 10}}},
                        {"pg_stat_wal", {{"wal_fpi", 4}}}};
  const json c = ckptsim::cli::counters_from_summary(summary);
  CHECK(c["transactions"] == 10);
  CHECK(c["buffers_clean"] == 3);
  CHECK(c["blks_read"] == 10);
  CHECK(c["wal_fpi"] == 4);
}

TEST_CASE("compare-pg on a file that is not a recording says what it expected, exit 2") {
  ckptsim::testing::TempDir tmp("compare-wrong");
  for (const std::string text : {R"({"a": 1})", R"({"scale": 1, "cases": [{"name": "x"}]})", R"([1, 2])"}) {
    CAPTURE(text);
    ckptsim::testing::write_text(tmp / "r.json", text);
    const auto r = ckptsim::testing::run_ckptsim("compare-pg " + (tmp / "r.json").string(), tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("not a recording of scripts/validate-pg") != std::string::npos);
    CHECK(r.err.find("json.exception") == std::string::npos);
  }
}
