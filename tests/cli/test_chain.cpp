// tests/cli/test_chain.cpp
//
// A chained grid (cli/run/run_chain.h) end to end: each point starts from the
// state the previous one left, the records say where each point sits, a rerun
// gives the same bytes (and reruns the whole chain), a stop leaves the later
// points not run.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

// Two points, the second after a reload that turns sorting off; checkpoints
// every 30 s so that the first point leaves a checkpoint's dirty pages behind.
const char* kChain = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"version": "9.6", "shared_buffers": "128MB", "checkpoint_timeout": "30s"},
  "pgbench": {"scale": 10, "clients": 2, "threads": 1, "duration": "20s"},
  "warmup": {"builtin": "select-only", "duration": "2s"},
  "grid": {"postgres.checkpoint_sorting": [false, true], "chain": true, "order": [1, "checkpoint_sorting=false"]},
  "seed": 42
})";

const char* kFirst = "checkpoint_sorting=true";
const char* kSecond = "checkpoint_sorting=false";

nlohmann::json json_of(const fs::path& file) { return nlohmann::json::parse(slurp(file)); }

}  // namespace

TEST_CASE("the second point of a chain starts from the state the first left, and says so") {
  TempDir tmp("chain-state");
  write_text(tmp / "c.json", kChain);
  const auto r = run_ckptsim("run " + quoted(tmp / "c.json") + " --quiet --jobs 2 --out " + quoted(tmp / "a"), tmp);
  REQUIRE(r.exit_code == 0);
  const auto first = json_of(tmp / "a" / kFirst / "summary.json");
  const auto second = json_of(tmp / "a" / kSecond / "summary.json");

  // The first starts after the select-only warmup: nothing dirty, no history.
  CHECK(first["start_state"]["history_rows"] == 0);
  CHECK(first["start_state"]["dirty_buffers"] == 0);
  CHECK(first["start_state"]["simulated_s"] == 2.0);
  // One history row per simple-update transaction, and one per transaction
  // in flight at the end (at most one per client), which pgbench -T lets finish.
  const auto first_rows = first["end_state"]["history_rows"].get<std::int64_t>();
  const auto first_transactions = first["pgbench"]["transactions"].get<std::int64_t>();
  CHECK(first_transactions > 1000);
  CHECK(first_rows >= first_transactions);
  CHECK(first_rows <= first_transactions + 2);
  CHECK(first["end_state"]["dirty_pages"].get<std::int64_t>() > 0);  // the 30 s checkpoint's writes in the cache
  CHECK(first["end_state"]["dirty_buffers"].get<std::int64_t>() > 0);
  // The second starts exactly there: no time passes between the two pgbench runs.
  CHECK(second["start_state"] == first["end_state"]);
  const auto second_added = second["end_state"]["history_rows"].get<std::int64_t>() - first_rows;
  CHECK(second_added >= second["pgbench"]["transactions"].get<std::int64_t>());
  CHECK(second_added <= second["pgbench"]["transactions"].get<std::int64_t>() + 2);
  CHECK(second["end_state"]["wal_lsn_mb"].get<double>() > second["start_state"]["wal_lsn_mb"].get<double>());
  CHECK(second["settings"]["postgres"]["checkpoint_sorting"] == false);

  // The records: run.json's place in the chain, grid.json's order, the index's word.
  const auto record1 = json_of(tmp / "a" / kFirst / "run.json");
  const auto record2 = json_of(tmp / "a" / kSecond / "run.json");
  CHECK(record1["chain"] == nlohmann::json{{"position", 1}, {"of", 2}});
  CHECK(record2["chain"] == nlohmann::json{{"position", 2}, {"of", 2}, {"after", kFirst}});
  const auto grid = json_of(tmp / "a" / "grid.json");
  CHECK(grid["points"] == nlohmann::json{kFirst, kSecond});
  CHECK(grid["chain"]["order"] == nlohmann::json{kFirst, kSecond});
  CHECK(slurp(tmp / "a" / "summary.csv").find("true,") < slurp(tmp / "a" / "summary.csv").find("false,"));
  CHECK(slurp(tmp / "a" / "index.html").find("(chained)") != std::string::npos);
  // The second point's server log starts with the reload that turned sorting off.
  const std::string log = slurp(tmp / "a" / kSecond / "postgres.log");
  CHECK(log.substr(0, log.find('\n')).ends_with("LOG:  received SIGHUP, reloading configuration files"));
}

TEST_CASE("a chained grid rerun, in a new folder or over itself, gives byte-identical files") {
  TempDir tmp("chain-rerun");
  write_text(tmp / "c.json", kChain);
  const std::string run = "run " + quoted(tmp / "c.json") + " --quiet --out ";
  REQUIRE(run_ckptsim(run + quoted(tmp / "a"), tmp).exit_code == 0);
  REQUIRE(run_ckptsim(run + quoted(tmp / "b"), tmp).exit_code == 0);
  const auto a = outputs(tmp / "a");
  CHECK(a.size() == 2 * 9 + 3);  // 2 points x 9 files + summary.csv, report.txt, grid.json
  CHECK(a == outputs(tmp / "b"));
  // Over itself: no point is kept (each depends on the one before), the files are the same.
  const auto again = run_ckptsim("run " + quoted(tmp / "c.json") + " --out " + quoted(tmp / "a"), tmp);
  REQUIRE(again.exit_code == 0);
  CHECK(again.err.find("kept") == std::string::npos);
  CHECK(outputs(tmp / "a") == a);
}

TEST_CASE("a stop in the middle of a chain leaves the later points not run and says so") {
  TempDir tmp("chain-stop");
  std::string chain = kChain;
  chain.replace(chain.find("\"postgres.checkpoint_sorting\""), std::string("\"postgres.checkpoint_sorting\"").size(),
                "\"pgbench.duration\": [\"100000s\", \"5s\"], \"postgres.checkpoint_sorting\"");
  chain.replace(chain.find("[1, \"checkpoint_sorting=false\"]"),
                std::string("[1, \"checkpoint_sorting=false\"]").size(), "[1, 0, 3, 2]");
  write_text(tmp / "c.json", chain);
  const auto r = run_ckptsim("run " + quoted(tmp / "c.json") + " --quiet --max-wall 1 --out " + quoted(tmp / "s"), tmp);
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("stopped by --max-wall") != std::string::npos);
  CHECK(r.err.find("0 of 4 points of the chain complete, the later ones not run; the same command runs the whole "
                   "chain again") != std::string::npos);
  CHECK(json_of(tmp / "s" / "duration=100000s,checkpoint_sorting=true" / "summary.json")["complete"] == false);
  CHECK_FALSE(fs::exists(tmp / "s" / "duration=100000s,checkpoint_sorting=false"));
  CHECK_FALSE(fs::exists(tmp / "s" / "duration=5s,checkpoint_sorting=true"));
}
