// tests/scenarios/test_repeat.cpp
//
// "repeat": N (scenarios/repeat.h): N points per point, interleaved, named
// ",repeat=K", repeat 1 on the scenario's seed and the others on seeds mixed
// from it; and the warmup settings of a grid's reloadable values.
#include <doctest/doctest.h>

#include <set>

#include "scenario_files.h"
#include "scenarios/repeat.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

TEST_CASE("repeat interleaves the points (a b a b) and keeps the scenario's seed for repeat 1") {
  const Plan plan = load({{"seed", 11}, {"repeat", 3}, {"grid", {{"pgbench.clients", {1, 2}}}}});
  CHECK(plan.is_grid());
  CHECK(plan.repeat == 3);
  std::vector<std::string> names;
  std::set<std::uint64_t> seeds;
  for (const GridPoint& p : plan.points) {
    names.push_back(p.name);
    CHECK(p.scenario.resolved["seed"] == p.scenario.seed);
    CHECK(p.base_name == (p.name.starts_with("clients=1") ? "clients=1" : "clients=2"));
    CHECK(p.scenario.seed == repeat_seed(11, p.repeat));
    seeds.insert(p.scenario.seed);
  }
  CHECK(names == std::vector<std::string>{"clients=1,repeat=1", "clients=2,repeat=1", "clients=1,repeat=2",
                                          "clients=2,repeat=2", "clients=1,repeat=3", "clients=2,repeat=3"});
  CHECK(plan.points[0].scenario.seed == 11);
  CHECK(seeds.size() == 3);  // one per repeat, shared by its points
}

TEST_CASE("repeat seeds are distinct, below 2^53 and a function of the seed and the index alone") {
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, ~0ULL}) {
    CHECK(repeat_seed(seed, 1) == seed);
    for (int k = 2; k <= kMaxRepeat; ++k) {
      const std::uint64_t s = repeat_seed(seed, k);
      CHECK(s < (1ULL << 53));
      CHECK(s == repeat_seed(seed, k));
      seen.insert(s);
    }
  }
  CHECK(seen.size() == 4 * (kMaxRepeat - 1));
}

TEST_CASE("repeat without a grid names the points repeat=K; --set repeat overrides the file") {
  const Plan plan = load({{"repeat", 2}}, {.sets = {"repeat=4"}});
  REQUIRE(plan.points.size() == 4);
  CHECK(plan.points[3].name == "repeat=4");
  CHECK(plan.points[3].base_name.empty());
  CHECK(load({{"repeat", 1}}).points.size() == 1);
}

TEST_CASE("bad repeat values are refused with their path") {
  CHECK(errors_of({{"repeat", 0}}) == std::vector<std::string>{"/repeat: 0 is out of range (1..100)"});
  CHECK(errors_of({{"repeat", 101}}) == std::vector<std::string>{"/repeat: 101 is out of range (1..100)"});
  CHECK(errors_of({{"repeat", "3"}})[0].starts_with("/repeat: \"3\" is not an integer"));
  CHECK(errors_of(json::object(), {.sets = {"repeat=x"}})[0].starts_with("--set repeat: \"x\" is not an integer"));
  CHECK(errors_of({{"repeat", 2}, {"grid", {{"postgres.checkpoint_sorting", {true, false}}, {"chain", true}}}})[0]
            .starts_with("/repeat: a chained grid runs once"));
}

TEST_CASE("a grid's reloadable values warm up with the scenario's own; the others with the point's") {
  const Plan plan = load(
      {{"postgres", {{"checkpoint_timeout", "60s"}}},
       {"grid", {{"postgres.checkpoint_timeout", {"60s", "120s"}}, {"postgres.shared_buffers", {"128MB", "256MB"}}}}});
  REQUIRE(plan.points.size() == 4);
  // 60s is the scenario's own: no separate warmup settings.
  CHECK_FALSE(plan.points[0].warmup_host);
  REQUIRE(plan.points[2].warmup_host);
  CHECK(plan.points[2].warmup_host->resolved["postgres"]["checkpoint_timeout"] == "1min");
  CHECK(plan.points[2].scenario.resolved["postgres"]["checkpoint_timeout"] == "2min");
  // shared_buffers needs a restart: the warmup has the point's own.
  CHECK(plan.points[3].warmup_host->resolved["postgres"]["shared_buffers"] ==
        plan.points[3].scenario.resolved["postgres"]["shared_buffers"]);
}
