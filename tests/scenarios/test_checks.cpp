// tests/scenarios/test_checks.cpp
//
// Rules that span settings: pgbench's threads <= clients, a run length of
// either a duration or a transaction count, the warmup's inheritance from
// the measured run, shared_buffers within RAM.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "scenario_files.h"
#include "scenarios/presets.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {

// The loader's errors for `text` written to `file` and loaded as a scenario file.
std::vector<std::string> errors_of_file_text(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
  testing::use_source_presets();
  try {
    load_plan(file);
  } catch (const ScenarioError& e) {
    return e.messages;
  }
  return {};
}

}  // namespace

TEST_CASE("more threads than clients: pgbench 9.5+ lowers -j to -c, with a note; 9.0-9.4 refuse them") {
  // pgbench.c main: "Don't need more threads than there are clients".
  const Plan plan = load({{"postgres", {{"version", "15"}}}, {"pgbench", {{"clients", 4}, {"threads", 8}}}});
  const Scenario& s = plan.points.at(0).scenario;
  CHECK(s.pgbench.threads == 4);
  CHECK(s.warmup.threads == 4);
  CHECK(s.resolved["pgbench"]["threads"] == 4);
  CHECK(plan.warnings == std::vector<std::string>{
                             "/pgbench/threads: 8 threads for 4 clients: pgbench 15 runs 4 threads, one per client"});
  // 9.4's pgbench: "number of clients (4) must be a multiple of number of threads (8)".
  CHECK(errors_of({{"postgres", {{"version", "9.4"}}}, {"pgbench", {{"clients", 4}, {"threads", 8}}}}) ==
        std::vector<std::string>{"/pgbench/threads: 8 is more than clients (4); pgbench 9.4 refuses it: number of "
                                 "clients (4) must be a multiple of number of threads (8)"});
  CHECK(errors_of({{"pgbench", {{"clients", 4}, {"threads", 4}}}}).empty());
}

TEST_CASE("pgbench's connections may take every max_connections slot (a superuser's), but no more") {
  CHECK(errors_of({{"pgbench", {{"clients", 100}, {"threads", 4}}}}).empty());  // the default 100
  CHECK(errors_of({{"pgbench", {{"clients", 101}, {"threads", 4}}}}) ==
        std::vector<std::string>{"/pgbench/clients: 101 connections are more than postgres.max_connections (100): the "
                                 "server refuses connection 101 (\"FATAL: sorry, too many clients already\"); raise "
                                 "max_connections or lower clients"});
  CHECK(errors_of({{"postgres", {{"max_connections", 1000}}}, {"pgbench", {{"clients", 1000}, {"threads", 8}}}}).empty());
  CHECK(errors_of({{"postgres", {{"max_connections", 10}}}, {"pgbench", {{"clients", 4}}}, {"warmup", {{"clients", 16}}}}) ==
        std::vector<std::string>{"/warmup/clients: 16 connections are more than postgres.max_connections (10): the "
                                 "server refuses connection 11 (\"FATAL: sorry, too many clients already\"); raise "
                                 "max_connections or lower clients"});
}

TEST_CASE("a run is a duration or a number of transactions, not both") {
  CHECK(errors_of({{"pgbench", {{"duration", "10min"}, {"transactions", 1000}}}}) ==
        std::vector<std::string>{"/pgbench/transactions: cannot be set together with duration (/pgbench/duration): "
                                 "pgbench runs for a duration or a number of transactions"});
  // Both set, in different layers, is still both.
  LoadOptions options;
  options.sets = {"pgbench.transactions=100"};
  CHECK(errors_of({{"pgbench", {{"duration", 600}}}}, options) ==
        std::vector<std::string>{"--set pgbench.transactions: cannot be set together with duration "
                                 "(/pgbench/duration): pgbench runs for a duration or a number of transactions"});
  // Transactions alone: the built-in 60s duration is dropped.
  const Scenario s = load({{"pgbench", {{"transactions", 1000}}}}).points.at(0).scenario;
  CHECK(s.pgbench.transactions == 1000);
  CHECK(s.pgbench.duration == 0);
}

TEST_CASE("the warmup inherits the measured run's settings, but no length") {
  const Scenario none = load({{"pgbench", {{"clients", 16}, {"threads", 4}, {"rate", 500}}}}).points.at(0).scenario;
  CHECK(none.warmup.duration == 0);  // no warmup unless asked for
  CHECK(none.warmup.transactions == 0);
  CHECK(none.warmup.clients == 16);
  CHECK(none.warmup.rate == 500);

  const Scenario some = load({{"pgbench", {{"clients", 16}, {"threads", 4}, {"scale", 100}, {"transactions", 50}}},
                              {"warmup", {{"duration", "2min"}, {"clients", 8}}}})
                            .points.at(0)
                            .scenario;
  CHECK(some.warmup.duration == 2 * sim::kMinute);
  CHECK(some.warmup.transactions == 0);  // the run's transaction count is not the warmup's
  CHECK(some.warmup.clients == 8);
  CHECK(some.warmup.threads == 4);
  CHECK(some.warmup.scale == 100);
  CHECK(some.resolved["warmup"].contains("scale") == false);
}

TEST_CASE("the warmup has no scale of its own and keeps the thread rule") {
  CHECK(errors_of({{"warmup", {{"scale", 10}}}}) ==
        std::vector<std::string>{"/warmup/scale: the warmup uses the measured run's scale (set pgbench.scale)"});
  // Inherited threads (4) over the warmup's own clients (2) on 9.2: blame the clients it set.
  CHECK(errors_of({{"postgres", {{"version", "9.2"}}},
                   {"pgbench", {{"clients", 8}, {"threads", 4}}},
                   {"warmup", {{"clients", 2}}}}) ==
        std::vector<std::string>{"/warmup/clients: 2 is less than threads (4); pgbench 9.2 refuses it: number of "
                                 "clients (2) must be a multiple of number of threads (4)"});
  CHECK(errors_of({{"postgres", {{"version", "9.2"}}}, {"warmup", {{"threads", 3}}}}) ==
        std::vector<std::string>{"/warmup/threads: 3 is more than clients (1); pgbench 9.2 refuses it: number of "
                                 "clients (1) must be a multiple of number of threads (3)"});
  // On 15 the warmup's threads are lowered too.
  CHECK(load({{"warmup", {{"threads", 3}}}}).points.at(0).scenario.warmup.threads == 1);
}

TEST_CASE("shared_buffers must fit in the machine's RAM") {
  CHECK(errors_of({{"hardware", {{"ram", "16GB"}}}, {"postgres", {{"shared_buffers", "32GB"}}}}) ==
        std::vector<std::string>{"/postgres/shared_buffers: 32GB does not fit in hardware.ram (16GB)"});
  CHECK(errors_of({{"hardware", {{"ram", "16GB"}}}, {"postgres", {{"shared_buffers", "4GB"}}}}).empty());
}

TEST_CASE("a scenario that would run but do nothing useful is an error that says why") {
  // RAM that leaves no page cache: the run would do 0 transactions.
  CHECK(errors_of({{"hardware", {{"ram", "512MB"}}}, {"postgres", {{"shared_buffers", "128MB"}}}}) ==
        std::vector<std::string>{"/hardware/ram: 512MB leaves nothing for the page cache after shared_buffers (128MB) "
                                 "and os.reserved_memory (512MB); at least 64MB is needed"});
  CHECK(errors_of({{"hardware", {{"ram", "1GB"}}}, {"postgres", {{"shared_buffers", "128MB"}}}}).empty());
  // A measured run shorter than one progress interval would report nothing.
  CHECK(errors_of({{"pgbench", {{"duration", 0}}}}) ==
        std::vector<std::string>{"/pgbench/duration: 0 is shorter than one progress interval (1s): "
                                 "the run would report nothing"});
  CHECK(errors_of({{"pgbench", {{"duration", "2s"}, {"progress", "5s"}}}}).size() == 1);
  CHECK(errors_of({{"pgbench", {{"transactions", 10}, {"progress", "5s"}}}}).empty());  // -t: no duration
}

TEST_CASE("-R is bounded so that the schedule's gaps stay whole nanoseconds (a rate of 2e9 used to hang)") {
  CHECK(errors_of({{"pgbench", {{"rate", 2e9}, {"latency_limit", "1ms"}}}}) ==
        std::vector<std::string>{"/pgbench/rate: 2000000000.0 is out of range (0..10000000)"});
  CHECK(errors_of({{"pgbench", {{"rate", 1e20}}}}).size() == 1);
  CHECK(errors_of({{"pgbench", {{"rate", 1e7}}}}).empty());
}

TEST_CASE("JSON nested deeper than 32 levels is refused before parsing (10^5 levels used to overflow the stack)") {
  const auto file = std::filesystem::temp_directory_path() / ("ckptsim-deep-" + std::to_string(::getpid()) + ".json");
  const auto errors_of_file = [&](const std::string& text) { return errors_of_file_text(file, text); };
  const std::string arrays = std::string(100000, '[') + std::string(100000, ']');
  auto errors = errors_of_file(arrays);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] == file.string() + ": nested deeper than 32 levels at line 1, column 33");
  std::string objects = "{\"postgres\":";
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  objects += '1';
  objects.append(100001, '}');
  errors = errors_of_file(objects);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].find("nested deeper than 32 levels") != std::string::npos);
  CHECK(errors[0].size() < 200);  // the message does not echo the input
  // Brackets inside strings do not count; a --set value is checked too.
  std::string quoted = R"({"seed": 1, "description": ")";
  quoted.append(100, '[');
  quoted += R"("})";
  CHECK(errors_of_file(quoted).empty());
  LoadOptions deep_set;
  deep_set.sets = {"postgres.shared_buffers=" + std::string(40, '[') + std::string(40, ']')};
  CHECK(errors_of(json::object(), deep_set) ==
        std::vector<std::string>{"--set postgres.shared_buffers: nested deeper than 32 levels"});
  std::filesystem::remove(file);
}

TEST_CASE("a key given twice, a grid value given twice, a point name too long for a folder are errors") {
  Errors errors;
  CHECK_FALSE(parse_json_text(R"({"postgres": {"shared_buffers": "1GB", "shared_buffers": "2GB"}})", "s.json", errors));
  CHECK(errors.messages() ==
        std::vector<std::string>{
            "s.json: the key /postgres/shared_buffers is given twice (JSON would keep only the last)"});
  Errors fine;
  CHECK(
      parse_json_text(R"({"postgres": {"shared_buffers": "1GB"}, "pgbench": {"shared_buffers": 1}})", "s.json", fine));
  CHECK(fine.empty());  // the same key in two objects is not a repeat

  CHECK(errors_of({{"grid", {{"postgres.checkpoint_sorting", {false, true, false}}}}}) ==
        std::vector<std::string>{
            "/grid/postgres.checkpoint_sorting/2: false repeats /grid/postgres.checkpoint_sorting/0"});
  // A number is the same value however it is written, as JSON compares them; "8" (text) is another value.
  CHECK(errors_of({{"grid", {{"pgbench.clients", {8, "8", 4, 8.0}}}}}) ==
        std::vector<std::string>{"/grid/pgbench.clients/3: 8.0 repeats /grid/pgbench.clients/0"});
  // A 20,000-value axis is looked up, not compared pairwise (200 million comparisons before):
  // the first repeat is the one reported.
  json values = json::array();
  for (int i = 0; i < 20000; ++i) values.push_back(i + 1);
  values.push_back(19999);
  LoadOptions many;
  many.max_points = 30000;
  CHECK(errors_of({{"grid", {{"pgbench.clients", values}}}}, many) ==
        std::vector<std::string>{"/grid/pgbench.clients/20000: 19999 repeats /grid/pgbench.clients/19998"});

  const std::string long_text(300, 'x');
  const auto too_long = errors_of({{"grid", {{"os.kernel", {long_text}}}}});
  REQUIRE(too_long.size() == 1);
  CHECK(too_long[0].find("is 307 bytes, more than a file name can hold (255)") != std::string::npos);
}

TEST_CASE("a bad value is shown at most 80 characters long, a string as written, never a library exception") {
  // Invalid UTF-8 and control characters stay as they are: cli/folder/printable.h escapes them where the message is
  // printed.
  LoadOptions utf8;
  utf8.sets = {"pgbench.builtin=\xff\xfe\x1b"};
  const auto bad = errors_of(json::object(), utf8);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0] == "--set pgbench.builtin: \"\xff\xfe\x1b\" is not one of tpcb-like, simple-update, select-only");
  LoadOptions huge;
  huge.sets = {"postgres.shared_buffers=" + std::string(500, 'x')};
  const auto long_value = errors_of(json::object(), huge);
  REQUIRE(long_value.size() == 1);
  CHECK(long_value[0].find("\"" + std::string(76, 'x') + "... is not a size") != std::string::npos);
  CHECK(long_value[0].size() < 250);
}

TEST_CASE("the WAL-size settings are the version's: checkpoint_segments to 9.4, max_wal_size from 9.5") {
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"checkpoint_segments", 32}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_segments: PostgreSQL 9.6 has no checkpoint_segments (9.5 "
                                 "replaced it): set max_wal_size, about (2 + checkpoint_completion_target) x "
                                 "checkpoint_segments x 16MB, here 1280MB"});
  CHECK(errors_of({{"postgres", {{"version", "9.4"}, {"max_wal_size", "2GB"}}}}) ==
        std::vector<std::string>{"/postgres/max_wal_size: PostgreSQL 9.4 has no max_wal_size (it came with 9.5): "
                                 "set checkpoint_segments"});
  CHECK(errors_of({{"postgres", {{"version", "9.4"}, {"checkpoint_segments", 32}}}}).empty());
  CHECK(errors_of({{"postgres", {{"version", "15"}, {"max_wal_size", "4GB"}}}}).empty());
}

TEST_CASE("max_wal_size without a unit counts 16MB segments on 9.5 to 10, MB from 11") {
  const auto with = [](const char* version, int min_wal_size = 80) {
    return load({{"postgres", {{"version", version}, {"max_wal_size", 64}, {"min_wal_size", min_wal_size}}}})
        .points.at(0)
        .scenario.postgres;
  };
  CHECK(with("9.5", 5).max_wal_size == 1 * sim::kGiB);
  CHECK(with("10", 5).max_wal_size == 1 * sim::kGiB);
  CHECK(with("10", 5).min_wal_size == 80 * sim::kMiB);
  CHECK(with("11").max_wal_size == 64 * sim::kMiB);
  // With a unit, every version reads the same size.
  CHECK(load({{"postgres", {{"version", "9.6"}, {"max_wal_size", "64MB"}}}})
            .points.at(0)
            .scenario.postgres.max_wal_size == 64 * sim::kMiB);
}

TEST_CASE("a scenario file larger than 1 MB is refused before it is read whole") {
  const auto file = std::filesystem::temp_directory_path() / ("ckptsim-large-" + std::to_string(::getpid()) + ".json");
  const auto errors_of_file = [&](const std::string& text) { return errors_of_file_text(file, text); };
  const std::string padding(kMaxJsonBytes, ' ');
  CHECK(errors_of_file("{\"seed\": 1}" + padding) ==
        std::vector<std::string>{file.string() +
                                 ": is larger than 1024 kB: a scenario or preset is hand-written JSON, not data"});
  CHECK(errors_of_file("{\"seed\": 1}" + padding.substr(0, kMaxJsonBytes - 20)).empty());  // just under: fine
  std::filesystem::remove(file);
}

TEST_CASE("input accepted before and refused now: text after the JSON, alike grid values, a pasted axis, 1e22") {
  // nlohmann's parser takes a NUL for the end of input: whatever follows would be ignored.
  Errors nul;
  CHECK_FALSE(parse_json_text(std::string("{\"seed\":1}\0garbage", 18), "s.json", nul));
  CHECK(nul.messages() ==
        std::vector<std::string>{"s.json: a NUL byte at line 1, column 11: nothing may follow the JSON value"});

  for (const json& values : {json{"1GB", "1024MB"}, json{"1 GB", "1GB"}}) {
    CAPTURE(values.dump());
    const auto alike = errors_of({{"grid", {{"postgres.shared_buffers", values}}}});
    REQUIRE(alike.size() == 1);
    CHECK(alike[0] == fmt::format("/grid: duplicate points: \"shared_buffers={}\" resolves to the same settings as "
                                  "\"shared_buffers={}\" (the values differ only in how they are written)",
                                  values[1].get<std::string>(), values[0].get<std::string>()));
  }

  CHECK(errors_of({{"grid", {{"postgres.conf", {"shared_buffers = 1GB", "shared_buffers = 2GB"}}}}}) ==
        std::vector<std::string>{
            "/grid/postgres.conf: pasted text (postgres.conf, os.sysctl, pgbench.command, warmup.command) cannot be "
            "a grid axis; vary the settings it holds, one axis each, e.g. \"postgres.shared_buffers\""});

  CHECK(errors_of({{"pgbench", {{"clients", 1e22}}}}) ==
        std::vector<std::string>{"/pgbench/clients: 1e+22 is out of range (1..10000)"});

  LoadOptions device;
  device.preset_files = {"/dev/zero"};
  CHECK(errors_of(json::object(), device) ==
        std::vector<std::string>{"--preset-file /dev/zero: not a regular file (expected a JSON file)"});
}
