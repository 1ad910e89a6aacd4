// `ckptsim bench`: the JSON's shape and that every figure is measured. No
// speed is asserted (it depends on the machine and its load): --quick cuts
// each benchmark to 3 simulated seconds.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;

TEST_CASE("bench --json --quick gives every shipped benchmark with positive figures") {
  TempDir tmp("bench");
  const CommandResult r = run_ckptsim("bench --json --quick", tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto doc = nlohmann::json::parse(r.out);
  const auto& list = doc.at("benchmarks");
  std::vector<std::string> names;
  for (const auto& b : list) {
    names.push_back(b.at("name").get<std::string>());
    for (const char* key :
         {"tx_per_s", "events_per_s", "sim_s_per_wall_s", "peak_rss_mb", "bytes_per_page", "wall_s"}) {
      CAPTURE(names.back());
      CAPTURE(key);
      CHECK(b.at(key).get<double>() > 0);
    }
  }
  CHECK(names == std::vector<std::string>{"select-only-in-memory", "e1-small-sort-flush", "e1-small-warmup",
                                          "tpcb-scale-1000", "e1-grid"});
}

TEST_CASE("bench --filter that matches nothing is refused, naming the benchmarks") {
  TempDir tmp("bench-filter");
  const CommandResult r = run_ckptsim("bench --filter no-such-thing", tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("e1-small-sort-flush") != std::string::npos);
}

TEST_CASE("bench --filter runs only the matching benchmarks") {
  TempDir tmp("bench-one");
  const CommandResult r = run_ckptsim("bench --json --quick --filter warmup", tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto list = nlohmann::json::parse(r.out).at("benchmarks");
  REQUIRE(list.size() == 1);
  CHECK(list[0].at("name") == "e1-small-warmup");
}
