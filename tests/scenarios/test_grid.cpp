// tests/scenarios/test_grid.cpp
//
// Grid expansion: the cross product with the first key varying slowest,
// point names built from the values as written, each point resolved from
// scratch (a grid over postgres.version takes each release's defaults), the
// grid over --set, and errors naming the grid entry.
#include <doctest/doctest.h>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

TEST_CASE("without a grid the plan is one unnamed point") {
  const Plan plan = load({{"postgres", {{"shared_buffers", "1GB"}}}});
  CHECK_FALSE(plan.is_grid());
  REQUIRE(plan.points.size() == 1);
  CHECK(plan.points[0].name.empty());
  CHECK(plan.points[0].values.empty());
}

TEST_CASE("a grid expands to the cross product, first key slowest") {
  const Plan plan =
      load({{"grid",
             {{"postgres.checkpoint_sorting", {true, false}}, {"postgres.checkpoint_flush_after", {"256kB", 0, 64}}}}});
  CHECK(plan.is_grid());
  CHECK(plan.grid_paths == std::vector<std::string>{"postgres.checkpoint_sorting", "postgres.checkpoint_flush_after"});
  REQUIRE(plan.points.size() == 6);
  std::vector<std::string> names;
  for (const GridPoint& p : plan.points) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{
                     "checkpoint_sorting=true,checkpoint_flush_after=256kB",
                     "checkpoint_sorting=true,checkpoint_flush_after=0",
                     "checkpoint_sorting=true,checkpoint_flush_after=64",
                     "checkpoint_sorting=false,checkpoint_flush_after=256kB",
                     "checkpoint_sorting=false,checkpoint_flush_after=0",
                     "checkpoint_sorting=false,checkpoint_flush_after=64",
                 });
  const GridPoint& last = plan.points[5];
  REQUIRE(last.values.size() == 2);
  CHECK(last.values[0] == std::pair<std::string, json>{"postgres.checkpoint_sorting", false});
  CHECK(last.values[1] == std::pair<std::string, json>{"postgres.checkpoint_flush_after", 64});
  CHECK(last.scenario.postgres.checkpoint_sorting == false);
  CHECK(last.scenario.postgres.checkpoint_flush_after == 512 * sim::kKiB);  // 64 blocks of 8kB
  CHECK(plan.points[1].scenario.postgres.checkpoint_flush_after == 0);
}

TEST_CASE("point names keep values as written, without quotes, '/' made '_'") {
  const Plan plan = load({{"grid", {{"os.vm.dirty_background_bytes", {"64MB", "1 GB"}}, {"pgbench.rate", {0.5}}}}}, {});
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].name == "vm.dirty_background_bytes=64MB,rate=0.5");
  CHECK(plan.points[1].name == "vm.dirty_background_bytes=1 GB,rate=0.5");
  CHECK(plan.points[1].scenario.os.dirty_background_bytes == sim::kGiB);

  const Plan slash = load({{"grid", {{"pgbench.builtin", {"tpcb-like"}}, {"postgres.version", {"9.6"}}}}});
  CHECK(slash.points[0].name == "builtin=tpcb-like,version=9.6");
}

TEST_CASE("a '/' in a grid value becomes '_' in the point name, which names a folder") {
  CHECK(point_name({{"hardware.device", "disks/a"}, {"os.vm.dirty_ratio", 5}}) == "device=disks_a,vm.dirty_ratio=5");
  // JSON numbers are named as JSON prints them.
  const Plan plan = load({{"grid", {{"postgres.version", {9.6, "15"}}}}});
  CHECK(plan.points[0].name == "version=9.6");
  CHECK(plan.points[1].name == "version=15");
}

TEST_CASE("a grid over postgres.version re-resolves each release's defaults") {
  const Plan plan = load({{"grid", {{"postgres.version", {"9.6", "15"}}}}});
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].scenario.postgres.checkpoint_completion_target == 0.5);
  CHECK(plan.points[0].scenario.postgres.log_checkpoints == false);
  CHECK(plan.points[1].scenario.postgres.checkpoint_completion_target == 0.9);
  CHECK(plan.points[1].scenario.postgres.log_checkpoints == true);
  // An explicit value still wins over every point's preset.
  const Plan pinned =
      load({{"postgres", {{"checkpoint_completion_target", 0.7}}}, {"grid", {{"postgres.version", {"9.6", "15"}}}}});
  CHECK(pinned.points[0].scenario.postgres.checkpoint_completion_target == 0.7);
  CHECK(pinned.points[1].scenario.postgres.checkpoint_completion_target == 0.7);
}

TEST_CASE("a grid over hardware.device re-resolves the device preset") {
  const Plan plan = load({{"grid", {{"hardware.device", {"hdd-7200-sata", "nvme"}}}}});
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].scenario.device.hdd.rpm == 7200);
  CHECK(plan.points[0].scenario.device.kind == ckptsim::disk::Kind::Hdd);
  CHECK(plan.points[1].scenario.device.kind == ckptsim::disk::Kind::Ssd);
  CHECK(plan.points[1].scenario.wal_device.name == "nvme");
}

TEST_CASE("a grid point wins over --set") {
  LoadOptions options;
  options.sets = {"postgres.shared_buffers=2GB", "postgres.bgwriter_delay=50ms"};
  const Plan plan = load({{"grid", {{"postgres.shared_buffers", {"512MB", "4GB"}}}}}, options);
  REQUIRE(plan.points.size() == 2);
  CHECK(plan.points[0].scenario.postgres.shared_buffers == 512 * sim::kMiB);
  CHECK(plan.points[1].scenario.postgres.shared_buffers == 4 * sim::kGiB);
  CHECK(plan.points[1].scenario.postgres.bgwriter_delay == 50 * sim::kMillisecond);  // --set, not in the grid
}

TEST_CASE("a bad grid value is named by its grid entry and index, once") {
  const auto errors =
      errors_of({{"grid", {{"postgres.checkpoint_flush_after", {"256kB", "4 MB"}}, {"pgbench.clients", {1, 2, 4}}}}});
  CHECK(errors ==
        std::vector<std::string>{"/grid/postgres.checkpoint_flush_after/1: \"4 MB\" is out of range (0..2MB)"});
}

TEST_CASE("grid paths must name known settings and hold non-empty lists") {
  CHECK(
      errors_of({{"grid", {{"postgres.shared_bufers", {"1GB"}}}}}) ==
      std::vector<std::string>{"/grid/postgres.shared_bufers: unknown setting; did you mean postgres.shared_buffers?"});
  CHECK(errors_of({{"grid", {{"os.dirty_ratio", {10}}}}}) ==
        std::vector<std::string>{"/grid/os.dirty_ratio: unknown setting; did you mean os.vm.dirty_ratio?"});
  CHECK(errors_of({{"grid", {{"postgres.shared_buffers", json::array()}}}}) ==
        std::vector<std::string>{"/grid/postgres.shared_buffers: [] is not a non-empty list of values"});
  CHECK(errors_of({{"grid", {{"postgres.shared_buffers", "1GB"}}}}) ==
        std::vector<std::string>{"/grid/postgres.shared_buffers: \"1GB\" is not a non-empty list of values"});
  CHECK(errors_of({{"grid", {{"warmup.scale", {10}}}}}) ==
        std::vector<std::string>{"/grid/warmup.scale: the warmup uses the measured run's scale (set pgbench.scale)"});
}

TEST_CASE("a grid larger than max_points is refused before it is built, naming the flag that lifts it") {
  json values = json::array();
  for (int i = 0; i < 1000; ++i) values.push_back(i);
  const json huge = {{"grid", {{"postgres.bgwriter_lru_maxpages", values}, {"postgres.commit_siblings", values}}}};
  CHECK(errors_of(huge) == std::vector<std::string>{"/grid: 1000000 points is more than --max-points (10000); "
                                                    "pass a larger --max-points to run it"});
  const json two_by_two = {
      {"grid", {{"postgres.checkpoint_sorting", {false, true}}, {"postgres.checkpoint_flush_after", {0, "256kB"}}}}};
  LoadOptions three;
  three.max_points = 3;
  CHECK(errors_of(two_by_two, three).size() == 1);
  LoadOptions four;
  four.max_points = 4;
  CHECK(load(two_by_two, four).points.size() == 4);
}
