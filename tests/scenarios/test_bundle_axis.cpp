// tests/scenarios/test_bundle_axis.cpp
//
// A named grid axis of setting bundles (scenarios/bundle_axis.h): each
// bundle sets several settings at once, points are named by the bundle, and
// paths that cannot be in a bundle, or vary on two axes, are errors naming
// /grid/AXIS/BUNDLE/PATH.
#include <doctest/doctest.h>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {

const json kTests = {
    {"c1", {{"pgbench.clients", 1}, {"pgbench.threads", 1}}},
    {"j2c4-R400-L100",
     {{"pgbench.clients", 4}, {"pgbench.threads", 2}, {"pgbench.rate", 400}, {"pgbench.latency_limit", "100ms"}}},
    {"as-written", json::object()}};

bool has(const std::vector<std::string>& errors, const std::string& text) {
  for (const std::string& e : errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a bundle axis sets each bundle's settings together, named by the bundle, in the order written") {
  const Plan plan = load({{"pgbench", {{"clients", 8}, {"threads", 8}}},
                          {"grid", {{"test", kTests}, {"postgres.checkpoint_sorting", {false, true}}}}});
  CHECK(plan.grid_paths == std::vector<std::string>{"test", "postgres.checkpoint_sorting"});
  REQUIRE(plan.points.size() == 6);
  CHECK(plan.points[0].name == "test=c1,checkpoint_sorting=false");
  CHECK(plan.points[3].name == "test=j2c4-R400-L100,checkpoint_sorting=true");
  CHECK(plan.points[5].name == "test=as-written,checkpoint_sorting=true");
  CHECK(plan.points[3].values[0] == std::pair<std::string, json>{"test", "j2c4-R400-L100"});

  const auto& c1 = plan.points[0].scenario.pgbench;
  CHECK(c1.clients == 1);
  CHECK(c1.threads == 1);
  CHECK(c1.rate == 0);
  const auto& rated = plan.points[3].scenario.pgbench;
  CHECK(rated.clients == 4);
  CHECK(rated.threads == 2);
  CHECK(rated.rate == 400);
  CHECK(rated.latency_limit == 100 * sim::kMillisecond);
  // An empty bundle leaves the scenario's own settings; nothing of the other bundles leaks into it.
  const auto& own = plan.points[5].scenario.pgbench;
  CHECK(own.clients == 8);
  CHECK(own.rate == 0);
  CHECK(own.latency_limit == 0);
}

TEST_CASE("a bundle's bad paths and values are errors naming the axis, the bundle and the path") {
  const auto errors = errors_of({{"grid",
                                  {{"test",
                                    {{"bad", {{"pgbench.clinets", 4}}},
                                     {"zero", {{"pgbench.clients", 0}}},
                                     {"pasted", {{"pgbench.command", "pgbench -c 4"}}},
                                     {"flat", 4}}}}}});
  CHECK(has(errors, "/grid/test/bad/pgbench.clinets: unknown setting; did you mean pgbench.clients?"));
  CHECK(has(errors, "/grid/test/pasted/pgbench.command: pasted text cannot be part of a bundle"));
  CHECK(has(errors, "/grid/test/flat: 4 is not an object of setting paths and values"));
  CHECK(
      has(errors_of({{"grid", {{"test", json::object()}}}}), "/grid/test: {} is not a named axis of setting bundles"));
  // A list under a key without a section is still read as a mistyped setting path.
  CHECK(has(errors_of({{"grid", {{"clients", {1, 2}}}}}), "/grid/clients: unknown setting"));
  // A bundle's value out of range is reported where the bundle wrote it.
  CHECK(
      has(errors_of({{"grid", {{"test", {{"zero", {{"pgbench.clients", 0}}}}}}}}), "/grid/test/zero/pgbench.clients"));
}

TEST_CASE("a setting varied by a bundle axis and by another axis is refused, naming both") {
  const auto errors = errors_of({{"grid", {{"test", kTests}, {"pgbench.rate", {100, 200}}}}});
  CHECK(has(errors, "/grid/pgbench.rate: varies pgbench.rate, which /grid/test also varies"));
}

TEST_CASE("a chained grid refuses a bundle that sets what a reload cannot change, naming the bundle's path") {
  const auto errors =
      errors_of({{"grid",
                  {{"test", {{"small", {{"pgbench.clients", 1}}}, {"big", {{"postgres.shared_buffers", "1GB"}}}}},
                   {"chain", true}}}});
  CHECK(has(errors, "/grid/test/big/postgres.shared_buffers: cannot vary along a chained grid"));
  CHECK_FALSE(has(errors, "/grid/test/small"));
}

TEST_CASE("two bundles whose names make one folder (\"a/b\" and \"a_b\") are refused, naming both") {
  const json bundles = {{"a/b", {{"pgbench.clients", 2}}}, {"a_b", {{"pgbench.clients", 4}}}};
  const auto errors = errors_of({{"pgbench", {{"clients", 8}, {"threads", 1}}}, {"grid", {{"test", bundles}}}});
  CHECK(errors == std::vector<std::string>{"/grid: the points test = \"a/b\" and test = \"a_b\" both run into the "
                                           "folder \"test=a_b\" ('/' becomes '_' in a folder name): give them values "
                                           "that differ there"});
}

TEST_CASE("a bundle name or grid value with a control character (ESC, BEL, a line break) is refused") {
  const json bundles = {{"\u001b]0;pwned\u0007\u001b[31mX", {{"pgbench.clients", 2}}}};
  const auto errors = errors_of({{"grid", {{"test", bundles}}}});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].starts_with("/grid: the point name "));
  CHECK(errors[0].find("holds a control character (U+001B)") != std::string::npos);
  const auto newline = errors_of({{"grid", {{"test", {{"a\nb", {{"pgbench.clients", 2}}}}}}}});
  REQUIRE(newline.size() == 1);
  CHECK(newline[0].find("holds a control character (U+000A)") != std::string::npos);
}
