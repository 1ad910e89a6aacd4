// `run --profile`: every event of the run is charged to exactly one component,
// the shares of wall time add up to the run's, the components are the ones
// whose code ran, and profiling changes no output but perf.json.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;

namespace {

const char* kIoScenario =
    R"({"hardware":{"device":"ssd-sata","ram":"2GB"},"postgres":{"version":"15","shared_buffers":"64MB",)"
    R"("checkpoint_timeout":"30s"},"pgbench":{"scale":5,"clients":2,"duration":"40s"},"seed":3})";

}  // namespace

TEST_CASE("run --profile charges every event to one component and changes no output but perf.json") {
  TempDir tmp("profile");
  { std::ofstream(tmp / "s.json") << kIoScenario; }
  const CommandResult profiled =
      run_ckptsim("run " + quoted(tmp / "s.json") + " --out " + quoted(tmp / "a") + " --profile", tmp);
  REQUIRE_MESSAGE(profiled.exit_code == 0, profiled.err);
  CHECK(profiled.out.find("where the wall time went") != std::string::npos);
  const CommandResult plain = run_ckptsim("run " + quoted(tmp / "s.json") + " --out " + quoted(tmp / "b") + " -q", tmp);
  REQUIRE_MESSAGE(plain.exit_code == 0, plain.err);

  const auto perf = nlohmann::json::parse(slurp(tmp / "a" / "perf.json"));
  const auto& profile = perf.at("profile");
  std::uint64_t events = 0;
  double share = 0;
  for (const char* c : {"engine", "pgbench", "postgres", "kernel", "block layer", "device"}) {
    CAPTURE(c);
    events += profile.at(c).at("events").get<std::uint64_t>();
    share += profile.at(c).at("wall_share").get<double>();
  }
  CHECK(profile.size() == 6);
  CHECK(events == perf.at("events").get<std::uint64_t>());
  CHECK(share == doctest::Approx(1.0).epsilon(1e-9));
  // An update load on a device: each layer of the write path ran code of its own.
  for (const char* c : {"pgbench", "postgres", "kernel", "block layer", "device"}) {
    CAPTURE(c);
    CHECK(profile.at(c).at("events").get<std::uint64_t>() > 0);
  }
  CHECK_FALSE(nlohmann::json::parse(slurp(tmp / "b" / "perf.json")).contains("profile"));
  for (const char* f : {"progress.csv", "system.csv", "summary.json", "checkpoints.csv", "postgres.log"}) {
    CAPTURE(f);
    CHECK(slurp(tmp / "a" / f) == slurp(tmp / "b" / f));
  }
}
