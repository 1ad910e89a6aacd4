// tests/scenarios/test_schema.cpp
//
// Strict reading of one section: exact error texts for an unknown key, a
// wrong type, a bad unit and a value out of range; every error collected;
// normalised output in the owners' units.
#include <doctest/doctest.h>

#include "scenario_files.h"
#include "scenarios/settings.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

TEST_CASE("an unknown setting is named with the nearest known one") {
  CHECK(errors_of({{"postgres", {{"shared_bufers", "1GB"}}}}) ==
        std::vector<std::string>{"/postgres/shared_bufers: unknown setting; did you mean shared_buffers?"});
  // Setting names are exact: a case difference is still a typo worth pointing at.
  CHECK(errors_of({{"os", {{"vm.Dirty_Ratio", 5}}}}) ==
        std::vector<std::string>{"/os/vm.Dirty_Ratio: unknown setting; did you mean vm.dirty_ratio?"});
  // Nothing close: no guess.
  CHECK(errors_of({{"pgbench", {{"fillfactor", 90}}}}) ==
        std::vector<std::string>{"/pgbench/fillfactor: unknown setting"});
}

TEST_CASE("a value of the wrong type or unit names the value as written and what was expected") {
  CHECK(errors_of({{"postgres", {{"checkpoint_timeout", "5 minutes"}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_timeout: \"5 minutes\" is not a duration (expected a "
                                 "number with one of us, ms, s, min, h, d, e.g. \"5min\")"});
  CHECK(errors_of({{"postgres", {{"shared_buffers", "2 KB"}}}}) ==
        std::vector<std::string>{"/postgres/shared_buffers: \"2 KB\" is not a size (expected a number with one "
                                 "of B, kB, MB, GB, TB, e.g. \"128MB\"; units are case-sensitive)"});
  CHECK(errors_of({{"pgbench", {{"clients", "four"}}}}) ==
        std::vector<std::string>{"/pgbench/clients: \"four\" is not an integer"});
  CHECK(errors_of({{"postgres", {{"full_page_writes", "maybe"}}}}) ==
        std::vector<std::string>{"/postgres/full_page_writes: \"maybe\" is not a boolean (expected on/off, "
                                 "true/false, yes/no or 1/0)"});
  CHECK(errors_of({{"pgbench", {{"builtin", "tpcc"}}}}) ==
        std::vector<std::string>{"/pgbench/builtin: \"tpcc\" is not one of tpcb-like, simple-update, select-only"});
}

TEST_CASE("a value out of range names the range in the setting's units") {
  CHECK(errors_of({{"os", {{"vm.dirty_ratio", 150}}}}) ==
        std::vector<std::string>{"/os/vm.dirty_ratio: 150 is out of range (0..100)"});
  CHECK(errors_of({{"postgres", {{"checkpoint_timeout", "10s"}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_timeout: \"10s\" is out of range (30s..1d)"});
  CHECK(errors_of({{"postgres", {{"checkpoint_completion_target", 1.5}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_completion_target: 1.5 is out of range (0..1)"});
  CHECK(errors_of({{"postgres", {{"shared_buffers", 8}}}}) ==  // 8 blocks = 64kB
        std::vector<std::string>{"/postgres/shared_buffers: 8 is out of range (at least 128kB)"});
  CHECK(errors_of({{"postgres", {{"wal_buffers", "32kB"}}}}) ==
        std::vector<std::string>{"/postgres/wal_buffers: \"32kB\" is out of range (-1 or 64kB..2GB)"});
  CHECK(errors_of({{"hardware", {{"ram", 128}}}}) ==  // base unit MB
        std::vector<std::string>{"/hardware/ram: 128 is out of range (at least 256MB)"});
}

TEST_CASE("every error in a file is reported, not just the first") {
  const auto errors = errors_of({{"os", {{"vm.dirty_ratio", 150}}},
                                 {"postgres", {{"shared_bufers", "1GB"}, {"checkpoint_timeout", "5 minutes"}}},
                                 {"pgbench", {{"clients", "four"}}}});
  REQUIRE(errors.size() == 4);
  CHECK(errors[0] == "/os/vm.dirty_ratio: 150 is out of range (0..100)");
  CHECK(errors[1] == "/postgres/shared_bufers: unknown setting; did you mean shared_buffers?");
  CHECK(errors[3] == "/pgbench/clients: \"four\" is not an integer");
}

TEST_CASE("a top-level key that is not a section is an error with a suggestion") {
  CHECK(errors_of({{"postgress", {{"shared_buffers", "1GB"}}}}) ==
        std::vector<std::string>{"/postgress: unknown section; did you mean postgres?"});
  CHECK(errors_of({{"zzz", 1}}) ==
        std::vector<std::string>{
            "/zzz: unknown section (expected hardware, device, os, postgres, pgbench, init, warmup, grid, "
            "seed, preset, description, published, repeat)"});
  CHECK(errors_of({{"postgres", "fast"}}) ==
        std::vector<std::string>{"/postgres: \"fast\" is not an object of settings"});
}

TEST_CASE("values are normalised in their owners' units") {
  const Plan plan = load({{"postgres",
                           {{"shared_buffers", 262144},   // 8kB blocks
                            {"checkpoint_timeout", 900},  // s
                            {"checkpoint_flush_after", 32},
                            {"bgwriter_delay", "0.5s"},
                            {"full_page_writes", "off"},
                            {"wal_buffers", -1}}},
                          {"os", {{"vm.dirty_bytes", "256MB"}}}});
  REQUIRE(plan.points.size() == 1);
  const json& pg = plan.points[0].scenario.resolved["postgres"];
  CHECK(pg["shared_buffers"] == "2GB");
  CHECK(pg["checkpoint_timeout"] == "15min");
  CHECK(pg["checkpoint_flush_after"] == "256kB");
  CHECK(pg["bgwriter_delay"] == "500ms");
  CHECK(pg["full_page_writes"] == false);
  CHECK(pg["wal_buffers"] == -1);
  CHECK(pg["checkpoint_completion_target"] == 0.9);
  CHECK(pg["bgwriter_lru_maxpages"] == 100);
  CHECK(plan.points[0].scenario.resolved["os"]["vm.dirty_bytes"] == "256MB");
  CHECK(plan.points[0].scenario.postgres.shared_buffers == 2 * sim::kGiB);
}

TEST_CASE("the normalised scenario lists every section and setting in declaration order") {
  const json resolved = load(json::object()).points.at(0).scenario.resolved;
  std::vector<std::string> sections;
  for (const auto& [key, value] : resolved.items()) sections.push_back(key);
  CHECK(sections ==
        std::vector<std::string>{"hardware", "devices", "os", "postgres", "pgbench", "init", "warmup", "seed"});
  const Schemas schemas = make_schemas();
  std::vector<std::string> pg_keys;
  for (const auto& [key, value] : resolved["postgres"].items()) pg_keys.push_back(key);
  // The default release (15) has every setting but 18's io_method and io_workers, the last two.
  std::vector<std::string> names = schemas.postgres.names();
  REQUIRE(names.size() == 32);
  CHECK(names[30] == "io_method");
  CHECK(names[31] == "io_workers");
  names.resize(30);
  CHECK(pg_keys == names);  // with fsync, wal_sync_method, track_wal_io_timing, data_checksums, wal_log_hints
  CHECK(resolved["hardware"] == json{{"cpus", 8}, {"ram", "16GB"}, {"device", "raid1-hdd-7200"}, {"wal_device", ""}});
  CHECK(resolved["seed"] == 1);
}

TEST_CASE("the user's key order is kept when reading a section") {
  // Errors come out in the order the keys were written, not sorted.
  const auto errors = errors_of({{"postgres", {{"zz_one", 1}, {"aa_two", 2}}}});
  REQUIRE(errors.size() == 2);
  CHECK(errors[0].starts_with("/postgres/zz_one:"));
  CHECK(errors[1].starts_with("/postgres/aa_two:"));
}

TEST_CASE("a behaviour switch is read into its enum and written back under the same name") {
  const Plan plan =
      load({{"os", {{"scheduler", "deadline"}, {"throttle", "writer-writeback"}, {"block_layer", "legacy"}}},
            {"pgbench", {{"builtin", "simple-update"}, {"protocol", "prepared"}}}});
  REQUIRE(plan.points.size() == 1);
  const Scenario& s = plan.points[0].scenario;
  CHECK(s.os.scheduler == os::Scheduler::Deadline);
  CHECK(s.os.throttle == os::Throttle::WriterWriteback);
  CHECK(s.os.block_layer == os::BlockLayer::Legacy);
  CHECK(s.pgbench.builtin == pgbench::Builtin::SimpleUpdate);
  CHECK(s.pgbench.protocol == pgbench::Protocol::Prepared);
  CHECK(s.resolved["os"]["scheduler"] == "deadline");
  CHECK(s.resolved["os"]["throttle"] == "writer-writeback");
  CHECK(s.resolved["pgbench"]["protocol"] == "prepared");
  // Every name of every table maps to a distinct value and back to itself.
  const auto round_trips = [](const auto& names) {
    for (const auto& [text, value] : names) {
      CAPTURE(std::string(text));
      CHECK(sim::enum_from_name(names, text) == value);
      CHECK(sim::enum_name(names, value) == text);
    }
  };
  round_trips(os::kThrottleNames);
  round_trips(os::kWritebackChunkNames);
  round_trips(os::kSyncModeNames);
  round_trips(os::kBlockLayerNames);
  round_trips(os::kSchedulerNames);
  round_trips(disk::kKindNames);
  round_trips(disk::kInterfaceNames);
  round_trips(pgbench::kBuiltinNames);
  round_trips(pgbench::kProtocolNames);
  CHECK_FALSE(sim::enum_from_name(os::kSchedulerNames, "cfx").has_value());
}

namespace {

struct Part {
  std::int64_t iops = 0;
  sim::Duration latency = 0;
};
struct Whole {
  std::int64_t mirrors = 1;
  Part part;
};

void describe_part(Schema<Part>& s) {
  s.integer("iops", &Part::iops, 0, 100).duration("latency", &Part::latency, sim::kMillisecond, 0, sim::kSecond);
}

}  // namespace

TEST_CASE("within() binds a member struct's rows flat, under a prefix, with their own units and ranges") {
  Schema<Whole> schema;
  schema.integer("mirrors", &Whole::mirrors, 1, 8).within(&Whole::part, describe_part, "volume_");
  CHECK(schema.names() == std::vector<std::string>{"mirrors", "volume_iops", "volume_latency"});

  Whole whole;
  Errors errors;
  schema.parse({{"volume_iops", 40}, {"volume_latency", 2}, {"mirrors", 2}}, Origins("/device"), whole, errors);
  CHECK(errors.empty());
  CHECK(whole.part.iops == 40);
  CHECK(whole.part.latency == 2 * sim::kMillisecond);  // the part's base unit
  CHECK(schema.normalise(whole).dump() == R"({"mirrors":2,"volume_iops":40,"volume_latency":"2ms"})");

  schema.parse({{"volume_iops", 400}, {"volume_iop", 1}}, Origins("/device"), whole, errors);
  CHECK(errors.messages() == std::vector<std::string>{"/device/volume_iops: 400 is out of range (0..100)",
                                                      "/device/volume_iop: unknown setting; did you mean volume_iops?"});
}
