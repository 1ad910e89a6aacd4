// A scenario's published figures (scenarios/published.h): read by grid point,
// refused with the JSON path when they name no point or are no numbers.
#include <doctest/doctest.h>

#include "scenarios/scenario.h"
#include "tests/scenarios/scenario_files.h"

using namespace ckptsim;
using scenarios::json;

namespace {

const json kGrid = {{"grid", {{"postgres.checkpoint_sorting", {true, false}}}}};

std::string error_of(const json& doc) {
  try {
    scenarios::load_plan(doc);
  } catch (const scenarios::ScenarioError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("published figures are read by grid point, in the order written") {
  json doc = kGrid;
  doc["published"] = {{"label", "E1 test"},
                      {"points",
                       {{"checkpoint_sorting=false", {{"name", "unsorted"}, {"tps", 199}}},
                        {"checkpoint_sorting=true", {{"name", "sorted"}, {"tps", 757}, {"pct_below_10", 0.1}}}}}};
  const scenarios::Plan plan = scenarios::load_plan(doc);
  REQUIRE(plan.published.has_value());
  CHECK(plan.published->label == "E1 test");
  CHECK(plan.published->band_pct == 35);
  REQUIRE(plan.published->points.size() == 2);
  CHECK(plan.published->points[1].name == "sorted");
  CHECK(plan.published->points[1].tps == 757);
  CHECK(plan.published->points[1].pct_below_10 == 0.1);
  CHECK_FALSE(plan.published->points[0].pct_below_10.has_value());
}

TEST_CASE("published figures naming no point of the grid, or not numbers, are errors with their path") {
  json doc = kGrid;
  doc["published"] = {{"label", "E1 test"},
                      {"points",
                       {{"checkpoint_sorting=maybe", {{"name", "x"}, {"tps", 1}}},
                        {"checkpoint_sorting=true", {{"name", "sorted"}, {"tps", "fast"}}}}}};
  const std::string error = error_of(doc);
  CHECK(error.find("/published/points/checkpoint_sorting=maybe: is not a point of this scenario's grid") !=
        std::string::npos);
  CHECK(error.find("/published/points/checkpoint_sorting=true/tps: \"fast\" is not a number of at least 0") !=
        std::string::npos);
  CHECK(error_of({{"published", {{"points", {{"", {{"name", "x"}, {"tps", 1}}}}}}}})
            .find("/published/label: is missing") != std::string::npos);
}

TEST_CASE("the shipped E1 scenarios carry the published figures of their four points") {
  for (const char* file : {"e1-small-grid.json", "e1-small-chained.json", "e1-medium-chained.json"}) {
    CAPTURE(file);
    const scenarios::Plan plan = scenarios::load_plan(scenarios::project_home() / "scenarios" / file);
    REQUIRE(plan.published.has_value());
    CHECK(plan.published->points.size() == 4);
  }
}

TEST_CASE("e1-small.json and e1-medium.json carry the published figures of the full-speed test types") {
  for (const char* file : {"e1-small.json", "e1-medium.json"}) {
    CAPTURE(file);
    const scenarios::Plan plan = scenarios::load_plan(scenarios::project_home() / "scenarios" / file);
    REQUIRE(plan.published.has_value());
    CHECK(plan.points.size() == 20);  // 5 test types x sort x flush
    REQUIRE(plan.published->points.size() == 8);
    for (const scenarios::PublishedPoint& p : plan.published->points)
      CHECK((p.point.starts_with("test=c1,") || p.point.starts_with("test=j2c4,")));
  }
}
