// tests/scenarios/test_chain.cpp
//
// Chained grids (scenarios/chain.h): "chain": true keeps the grid's order or
// takes "order" (names or 0-based indices, each point once); an axis that a
// reload cannot change is refused naming its path and why; --set grid.chain.
#include <doctest/doctest.h>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {

json sort_flush_grid(json extra) {
  json grid = {{"postgres.checkpoint_sorting", {true, false}}, {"postgres.checkpoint_flush_after", {"256kB", 0}}};
  if (extra.is_object()) grid.update(extra);
  return {{"grid", grid}};
}

std::vector<std::string> names_of(const Plan& plan) {
  std::vector<std::string> names;
  for (const GridPoint& p : plan.points) names.push_back(p.name);
  return names;
}

}  // namespace

TEST_CASE("a chain without an order runs in the grid's order; an unchained grid is not chained") {
  const Plan plain = load(sort_flush_grid({}));
  CHECK_FALSE(plain.chained);
  const Plan chained = load(sort_flush_grid({{"chain", true}}));
  CHECK(chained.chained);
  CHECK(chained.grid_paths == plain.grid_paths);
  CHECK(names_of(chained) == names_of(plain));
}

TEST_CASE("a chain's order by names and indices reorders the points and their settings") {
  const Plan plan = load(sort_flush_grid({{"chain", true},
                                          {"order",
                                           {3, "checkpoint_sorting=true,checkpoint_flush_after=256kB", 2,
                                            "checkpoint_sorting=true,checkpoint_flush_after=0"}}}));
  REQUIRE(plan.points.size() == 4);
  CHECK(names_of(plan) == std::vector<std::string>{"checkpoint_sorting=false,checkpoint_flush_after=0",
                                                   "checkpoint_sorting=true,checkpoint_flush_after=256kB",
                                                   "checkpoint_sorting=false,checkpoint_flush_after=256kB",
                                                   "checkpoint_sorting=true,checkpoint_flush_after=0"});
  CHECK(plan.points[0].scenario.postgres.checkpoint_sorting == false);
  CHECK(plan.points[0].scenario.postgres.checkpoint_flush_after == 0);
  CHECK(plan.points[1].scenario.postgres.checkpoint_flush_after == 256 * sim::kKiB);
}

TEST_CASE("order errors name /grid/order/N, the value and the allowed points") {
  const auto duplicate = errors_of(sort_flush_grid({{"chain", true}, {"order", {0, 1, 2, 1}}}));
  REQUIRE(duplicate.size() == 1);
  CHECK(duplicate[0] ==
        "/grid/order/3: 1 names point \"checkpoint_sorting=true,checkpoint_flush_after=0\" again (first at "
        "/grid/order/1)");

  const auto unknown = errors_of(sort_flush_grid({{"chain", true}, {"order", {0, 1, 2, "sorting=on"}}}));
  REQUIRE(unknown.size() == 1);
  CHECK(
      unknown[0].starts_with("/grid/order/3: \"sorting=on\" is not a point of the grid (the points: "
                             "\"checkpoint_sorting=true,checkpoint_flush_after=256kB\", "));
  CHECK(unknown[0].ends_with(", or their indices 0..3)"));

  const auto out_of_range = errors_of(sort_flush_grid({{"chain", true}, {"order", {0, 1, 2, 4}}}));
  REQUIRE(out_of_range.size() == 1);
  CHECK(out_of_range[0].starts_with("/grid/order/3: 4 is not a point of the grid"));

  const auto missing = errors_of(sort_flush_grid({{"chain", true}, {"order", {3, 1, 0}}}));
  REQUIRE(missing.size() == 1);
  CHECK(
      missing[0].starts_with("/grid/order: leaves out \"checkpoint_sorting=false,checkpoint_flush_after=256kB\"; "
                             "a chain runs every point once"));

  const auto unchained = errors_of(sort_flush_grid({{"order", {0, 1, 2, 3}}}));
  REQUIRE(unchained.size() == 1);
  CHECK(unchained[0] == "/grid/order: an order is for a chained grid only; add \"chain\": true");

  const auto not_bool = errors_of(sort_flush_grid({{"chain", "yes"}}));
  REQUIRE(not_bool.size() == 1);
  CHECK(not_bool[0].starts_with("/grid/chain: \"yes\" is not a boolean"));
}

TEST_CASE("a chained axis that needs a restart, a re-init or another host is refused with its path") {
  const auto restart = errors_of({{"grid",
                                   {{"postgres.shared_buffers", {"128MB", "1GB"}},
                                    {"postgres.checkpoint_sorting", {true, false}},
                                    {"chain", true}}}});
  REQUIRE(restart.size() == 1);
  CHECK(restart[0] ==
        "/grid/postgres.shared_buffers: cannot vary along a chained grid: a change of shared_buffers (context postmaster) needs a server "
        "restart, which would not carry the state over");

  const auto others = errors_of({{"grid",
                                  {{"pgbench.scale", {10, 20}},
                                   {"hardware.device", {"hdd-7200-sata", "nvme"}},
                                   {"os.vm.dirty_ratio", {10, 20}},
                                   {"warmup.duration", {"1s", "2s"}},
                                   {"postgres.wal_buffers", {"1MB", "16MB"}},
                                   {"chain", true}}}});
  REQUIRE(others.size() == 5);
  // In the file's order.
  CHECK(others[0] ==
        "/grid/pgbench.scale: cannot vary along a chained grid: a change of scale needs pgbench -i, which would not "
        "carry the state over");
  CHECK(others[1].starts_with("/grid/hardware.device: cannot vary along a chained grid: "));
  CHECK(others[2].starts_with("/grid/os.vm.dirty_ratio: cannot vary along a chained grid: "));
  CHECK(others[3] ==
        "/grid/warmup.duration: cannot vary along a chained grid: a chain has one warmup, before its first point");
  CHECK(others[4] ==
        "/grid/postgres.wal_buffers: cannot vary along a chained grid: a change of wal_buffers (context postmaster) needs a "
        "server restart, which would not carry the state over");

  // The same axes without a chain are a grid like any other.
  CHECK(load({{"grid", {{"postgres.shared_buffers", {"128MB", "1GB"}}}}}).points.size() == 2);
  // Reloadable settings and the pgbench command line may vary.
  CHECK(load({{"grid",
               {{"postgres.bgwriter_lru_maxpages", {0, 100}},
                {"postgres.max_wal_size", {"1GB", "4GB"}},
                {"pgbench.clients", {1, 4}},
                {"chain", true}}}})
            .points.size() == 8);
}

TEST_CASE("--set grid.chain and grid.order chain a grid file; without a grid it is an error") {
  const Plan plan = load(sort_flush_grid({}), {.sets = {"grid.chain=true", "grid.order=[3,2,1,0]"}});
  CHECK(plan.chained);
  CHECK(plan.points.front().name == "checkpoint_sorting=false,checkpoint_flush_after=0");
  CHECK(plan.points.back().name == "checkpoint_sorting=true,checkpoint_flush_after=256kB");

  const auto no_grid = errors_of({{"postgres", {{"shared_buffers", "1GB"}}}}, {.sets = {"grid.chain=true"}});
  REQUIRE(no_grid.size() == 1);
  CHECK(no_grid[0] == "--set grid.chain: the scenario has no grid to chain");
}
