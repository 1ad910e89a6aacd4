// tests/scenarios/test_paste.cpp
//
// Pasted text: postgresql.conf (postgres.conf), sysctl.conf (os.sysctl) and a
// pgbench command line (pgbench.command) give the same settings as the JSON
// keys; real names the model ignores are one warning, others are errors with
// a suggestion. Also the values a pasted file holds that the JSON keys did
// not take before: synchronous_commit's levels and minor releases.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {

json resolved(const json& doc, const std::string& section) {
  return load(doc).points.at(0).scenario.resolved.at(section);
}

// The one error of a pgbench.command, or how many there were.
std::string refusal(const std::string& command) {
  const auto errors = errors_of({{"pgbench", {{"command", command}}}});
  return errors.size() == 1 ? errors[0] : std::to_string(errors.size()) + " errors";
}

}  // namespace

TEST_CASE("postgresql.conf text gives the settings its JSON keys give, as the server reads the file") {
  const std::string conf =
      "# postgresql.conf, as edited on a real host\n"
      "shared_buffers = '2GB'            # quoted, with a comment\n"
      "checkpoint_timeout 15min\n"
      "  Checkpoint_Completion_Target=0.9\n"
      "max_wal_size = 8192               # MB, the base unit\n"
      "bgwriter_lru_maxpages = '1000'\n"
      "checkpoint_flush_after = 32       # 8kB blocks: 256kB\n"
      "full_page_writes = off\n"
      "\n"
      "shared_buffers = 4GB              # a later line wins, as in the server\n";
  const json pasted = resolved({{"postgres", {{"conf", conf}}}}, "postgres");
  const json keys = resolved({{"postgres",
                               {{"shared_buffers", "4GB"},
                                {"checkpoint_timeout", "15min"},
                                {"checkpoint_completion_target", 0.9},
                                {"max_wal_size", "8GB"},
                                {"bgwriter_lru_maxpages", 1000},
                                {"checkpoint_flush_after", "256kB"},
                                {"full_page_writes", false}}}},
                             "postgres");
  CHECK(pasted == keys);
  CHECK(pasted.at("shared_buffers") == "4GB");
  CHECK(pasted.at("checkpoint_flush_after") == "256kB");
}

TEST_CASE("a setting given both by pasted text and by a JSON key of the same section is an error naming both") {
  // Neither silently wins: one object has no order, and both were written by the user.
  CHECK(errors_of(
            {{"postgres", {{"shared_buffers", "1GB"}, {"conf", "shared_buffers = 2GB\nshared_buffers = 4GB\n"}}}}) ==
        std::vector<std::string>{"/postgres/shared_buffers: \"1GB\" is also set by /postgres/conf: line 2 (\"4GB\"): "
                                 "give shared_buffers once, in the pasted text or as a JSON key"});
  CHECK(errors_of({{"pgbench", {{"clients", 8}, {"command", "pgbench -c 4 -j 2 -T 60"}}}}) ==
        std::vector<std::string>{"/pgbench/clients: 8 is also set by /pgbench/command: -c (\"4\"): give clients once, "
                                 "in the pasted text or as a JSON key"});
  CHECK(errors_of({{"warmup", {{"duration", "1min"}, {"command", "pgbench -S -T 60"}}}})
            .at(0)
            .rfind("/warmup/duration: \"1min\" is also set by /warmup/command: -T", 0) == 0);
  CHECK(errors_of({{"os", {{"vm.dirty_ratio", 10}, {"sysctl", "vm.dirty_ratio = 5"}}}}) ==
        std::vector<std::string>{"/os/vm.dirty_ratio: 10 is also set by /os/sysctl: line 1 (\"5\"): give "
                                 "vm.dirty_ratio once, in the pasted text or as a JSON key"});
  // Different settings in the two ways, and pasted text under a later layer, are fine.
  CHECK(errors_of({{"postgres", {{"shared_buffers", "1GB"}, {"conf", "checkpoint_timeout = 15min"}}}}).empty());
  LoadOptions options;
  options.sets = {"postgres.shared_buffers=512MB"};
  CHECK(
      load({{"postgres", {{"conf", "shared_buffers = 2GB"}}}}, options).points.at(0).scenario.postgres.shared_buffers ==
      512 * sim::kMiB);
}

TEST_CASE("pasted sysctl lines follow the kernel: writing a dirty ratio zeroes its bytes, the later line wins") {
  // dirty_ratio_handler sets vm_dirty_bytes = 0; vm.dirty_bytes, when not 0, rules over the ratio.
  const Scenario ratio_last = load({{"os",
                                     {{"sysctl",
                                       "vm.dirty_bytes = 268435456\nvm.dirty_ratio = 10\n"
                                       "vm.dirty_background_bytes = 67108864\nvm.dirty_background_ratio = 3\n"}}}})
                                  .points.at(0)
                                  .scenario;
  CHECK(ratio_last.os.dirty_bytes == 0);
  CHECK(ratio_last.os.dirty_ratio == 10);
  CHECK(ratio_last.os.dirty_background_bytes == 0);
  CHECK(ratio_last.os.dirty_background_ratio == 3);
  const Scenario bytes_last =
      load({{"os", {{"sysctl", "vm.dirty_ratio = 10\nvm.dirty_bytes = 268435456\n"}}}}).points.at(0).scenario;
  CHECK(bytes_last.os.dirty_bytes == 256 * sim::kMiB);
  // Between layers too: a ratio given with --set clears the bytes a fragment or the file set.
  LoadOptions options;
  options.sets = {"os.vm.dirty_ratio=30"};
  const Scenario set_ratio = load({{"os", {{"vm.dirty_bytes", "256MB"}}}}, options).points.at(0).scenario;
  CHECK(set_ratio.os.dirty_bytes == 0);
  CHECK(set_ratio.os.dirty_ratio == 30);
  // A grid over the ratio, beside bytes in the file: each point's ratio rules.
  CHECK(load({{"os", {{"vm.dirty_bytes", "256MB"}}}, {"grid", {{"os.vm.dirty_ratio", {5, 10}}}}})
            .points.at(1)
            .scenario.os.dirty_bytes == 0);
}

TEST_CASE("a dirty ratio and a non-zero dirty bytes in one layer is an error naming both") {
  CHECK(errors_of({{"os", {{"vm.dirty_ratio", 10}, {"vm.dirty_bytes", "256MB"}}}}) ==
        std::vector<std::string>{"/os/vm.dirty_bytes: \"256MB\" is given together with /os/vm.dirty_ratio (10): the "
                                 "kernel keeps only the last written of vm.dirty_ratio and vm.dirty_bytes (writing one "
                                 "zeroes the other); give one"});
  CHECK(errors_of({{"os", {{"vm.dirty_background_bytes", "64MB"}, {"sysctl", "vm.dirty_background_ratio = 5"}}}}) ==
        std::vector<std::string>{"/os/vm.dirty_background_bytes: \"64MB\" is given together with /os/sysctl: line 1 "
                                 "(\"5\"): the kernel keeps only the last written of vm.dirty_background_ratio and "
                                 "vm.dirty_background_bytes (writing one zeroes the other); give one"});
  CHECK(errors_of({{"grid", {{"os.vm.dirty_ratio", {10, 20}}, {"os.vm.dirty_bytes", {0, "256MB"}}}}}) ==
        std::vector<std::string>{"/grid/os.vm.dirty_bytes: varies together with /grid/os.vm.dirty_ratio: the kernel "
                                 "keeps only the last written of the two; vary one"});
  // 0 bytes is "the ratio applies", as the presets write it.
  CHECK(errors_of({{"os", {{"vm.dirty_ratio", 10}, {"vm.dirty_bytes", 0}}}}).empty());
}

TEST_CASE("real PostgreSQL parameters that ckptsim does not model are listed once in a warning") {
  const json doc = {{"postgres",
                     {{"conf",
                       "max_connections = 100\n"
                       "wal_level = replica\n"
                       "random_page_cost = 1.1\n"
                       "huge_pages = try\n"
                       "application_name = 'it''s # not a comment'\n"
                       "pg_stat_statements.max = 10000   # an extension's\n"
                       "max_connections = 200\n"
                       "shared_buffers = 1GB\n"}}}};
  const Plan plan = load(doc);
  CHECK(plan.warnings ==
        std::vector<std::string>{"/postgres/conf: ckptsim does not model wal_level, random_page_cost, "
                                 "huge_pages, application_name, pg_stat_statements.max; ignored"});
  CHECK(plan.points.at(0).scenario.resolved.at("postgres").at("shared_buffers") == "1GB");
  CHECK(plan.points.at(0).scenario.postgres.max_connections == 200);  // modelled: the later line wins
  CHECK(load({{"postgres", {{"shared_buffers", "1GB"}}}}).warnings.empty());
}

TEST_CASE("a postgresql.conf name that is not real, or a line the server would not parse, is an error") {
  CHECK(errors_of({{"postgres", {{"conf", "shared_bufers = 1GB\n"}}}}) ==
        std::vector<std::string>{
            "/postgres/conf: line 1: \"shared_bufers\" is not a PostgreSQL parameter; did you mean shared_buffers?"});
  CHECK(errors_of({{"postgres",
                    {{"conf",
                      "# one problem a line\n"
                      "work_mem = '4MB\n"
                      "shared_buffers = 1GB 2GB\n"
                      "include 'tuning.conf'\n"
                      "= 5\n"
                      "wal_buffers =\n"
                      "version = 15\n"}}}}) ==
        std::vector<std::string>{
            "/postgres/conf: line 2: unterminated quoted string in the value of work_mem",
            "/postgres/conf: line 3: syntax error near \"2GB\" after the value of shared_buffers",
            "/postgres/conf: line 4: include is not followed: paste the included file's lines instead",
            "/postgres/conf: line 5: syntax error near \"= 5\" (expected a parameter name)",
            "/postgres/conf: line 6: no value for wal_buffers",
            "/postgres/conf: line 7: \"version\" is not a PostgreSQL parameter",
        });
  // A value the model reads is checked as the JSON key's would be, naming the line.
  CHECK(errors_of({{"postgres", {{"conf", "\ncheckpoint_timeout = '5 minutes'\n"}}}})
            .at(0)
            .starts_with("/postgres/conf: line 2: \"5 minutes\" is not a duration"));
  CHECK(errors_of({{"postgres", {{"conf", 5}}}}) ==
        std::vector<std::string>{"/postgres/conf: 5 is not a string of postgresql.conf lines"});
}

TEST_CASE("sysctl.conf text gives the vm settings its JSON keys give") {
  const std::string sysctl =
      "# /etc/sysctl.d/90-postgres.conf\n"
      "; an old-style comment\n"
      "vm.dirty_background_bytes = 67108864\n"
      "vm/dirty_bytes=268435456\n"
      "-vm.dirty_expire_centisecs = 1500\n"
      "vm.swappiness = 1\n"
      "kernel.shmmax = 17179869184\n"
      "net.core.somaxconn = 1024\n";
  const Plan plan = load({{"os", {{"sysctl", sysctl}}}});
  CHECK(
      plan.points.at(0).scenario.resolved.at("os") ==
      resolved(
          {{"os",
            {{"vm.dirty_background_bytes", "64MB"}, {"vm.dirty_bytes", "256MB"}, {"vm.dirty_expire_centisecs", 1500}}}},
          "os"));
  CHECK(plan.warnings ==
        std::vector<std::string>{"/os/sysctl: ckptsim does not model vm.swappiness, kernel.shmmax, net.core.somaxconn; "
                                 "ignored"});
  CHECK(errors_of(
            {{"os", {{"sysctl", "vm.dirty_ration = 5\nnr_requests = 4\nkernal.shmmax = 1\nvm.dirty_ratio 10\n"}}}}) ==
        std::vector<std::string>{
            "/os/sysctl: line 1: \"vm.dirty_ration\" is not a Linux sysctl; did you mean vm.dirty_ratio?",
            "/os/sysctl: line 2: \"nr_requests\" is not a sysctl: os.nr_requests is a block-queue or model "
            "setting; give it as a JSON key",
            "/os/sysctl: line 3: \"kernal.shmmax\" is not a Linux sysctl; did you mean kernel.shmmax?",
            "/os/sysctl: line 4: \"vm.dirty_ratio 10\" is not name = value",
        });
}

TEST_CASE("a pgbench command line gives the settings its options name, in pgbench's short and long forms") {
  const json keys = resolved({{"pgbench",
                               {{"protocol", "prepared"},
                                {"builtin", "simple-update"},
                                {"progress", 1},
                                {"duration", 4000},
                                {"threads", 2},
                                {"clients", 4},
                                {"rate", 400},
                                {"latency_limit", 100}}}},
                             "pgbench");
  for (const std::string command : {
           "pgbench -M prepared -N -P 1 -T 4000 -j 2 -c 4 -R 400 -L 100",
           "/usr/lib/postgresql/15/bin/pgbench --protocol=prepared --skip-some-updates --progress 1 --time=4000 "
           "--jobs=2 --client 4 --rate=400 --latency-limit=100 -n",
           "pgbench -nc4 -j2 -T4000 -P1 -Mprepared -R 400 -L100 --cl=4 -b simple@1",
           "pgbench -c 4 -j 2 \\\n  -T 4000 -P 1 -M 'prepared' -N -R \"400\" -L 100 --",
       }) {
    CAPTURE(command);
    const Plan plan = load({{"pgbench", {{"command", command}}}});
    CHECK(plan.points.at(0).scenario.resolved.at("pgbench") == keys);
    CHECK(plan.warnings.empty());
  }
  // The warmup takes a command too, on the measured run's database.
  CHECK(resolved({{"warmup", {{"command", "pgbench -S -c 8 -j 4 -T 60"}}}}, "warmup").at("builtin") == "select-only");
  CHECK(errors_of({{"warmup", {{"command", "pgbench -s 100 -T 60"}}}}) ==
        std::vector<std::string>{
            "/warmup/command: -s: the warmup runs on the measured run's database: give -s in pgbench.command"});
}

TEST_CASE("a pgbench command's run length replaces the other one, and its options are checked as pgbench does") {
  // -t replaces a duration laid below it (a preset fragment's), -T a transaction count.
  const testing::ScratchDir dir("paste-length");
  LoadOptions long_run, counted;
  long_run.preset_files = {dir.write("long.json", R"({"pgbench": {"duration": "10min"}})")};
  counted.preset_files = {dir.write("counted.json", R"({"pgbench": {"transactions": 100}})")};
  const json by_count =
      load({{"pgbench", {{"command", "pgbench -t 500"}}}}, long_run).points.at(0).scenario.resolved.at("pgbench");
  CHECK(by_count.at("transactions") == 500);
  CHECK(by_count.at("duration") == "0");
  const json by_time =
      load({{"pgbench", {{"command", "pgbench -T 60"}}}}, counted).points.at(0).scenario.resolved.at("pgbench");
  CHECK(by_time.at("transactions") == 0);
  CHECK(by_time.at("duration") == "1min");
  // A JSON key beside the command is the user's own: both lengths at once is pgbench's error.
  CHECK(errors_of({{"pgbench", {{"duration", "10min"}, {"command", "pgbench -t 500"}}}}) ==
        std::vector<std::string>{"/pgbench/command: -t: cannot be set together with duration (/pgbench/duration): "
                                 "pgbench runs for a duration or a number of transactions"});

  const Plan plan = load({{"pgbench", {{"command", "pgbench -C -h /tmp -p 5433 -r --max-tries=3 -T 30 bench"}}}});
  CHECK(plan.warnings ==
        std::vector<std::string>{"/pgbench/command: ckptsim does not model -C, -h, -p, -r, --max-tries, dbname bench; "
                                 "ignored"});
  CHECK(errors_of({{"pgbench",
                    {{"command",
                      "pgbench -c x -T 60 -t 100 -f custom.sql --clinet=3 --aggregate-interval 5 -X -b tpcb -S -i "
                      "db1 db2"}}}}) ==
        std::vector<std::string>{
            "/pgbench/command: -c: invalid value \"x\" for option -c/--clients",
            "/pgbench/command: -f: ckptsim runs the builtin scripts only (-b, -N, -S)",
            "/pgbench/command: --clinet is not a pgbench option; did you mean --client?",
            "/pgbench/command: -X is not a pgbench option",
            "/pgbench/command: -i: initialises a database; give the benchmark's command (the init section is the "
            "host's state after -i)",
            "/pgbench/command: ckptsim runs one builtin script; the command gives 2 (-b tpcb, -S)",
            "/pgbench/command: specify either a number of transactions (-t) or a duration (-T), not both",
            "/pgbench/command: --aggregate-interval: log aggregation is allowed only when actually logging "
            "transactions (-l)",
            "/pgbench/command: too many command-line arguments (first is \"db2\")",
        });
  CHECK(errors_of({{"pgbench", {{"command", "pgbench -c x -T 60"}}}}) ==
        std::vector<std::string>{"/pgbench/command: -c: invalid value \"x\" for option -c/--clients"});
  CHECK(errors_of({{"pgbench", {{"command", "pgbench -c 4 -M 'prepared"}}}}) ==
        std::vector<std::string>{"/pgbench/command: unterminated ' quote from character 17"});
  CHECK(errors_of({{"pgbench", {{"command", "pgbench -c"}}}}) ==
        std::vector<std::string>{"/pgbench/command: -c: needs an argument"});
  CHECK(resolved({{"pgbench", {{"command", "pgbench -l --aggregate-interval=5 -T 60"}}}}, "pgbench")
            .at("aggregate_interval") == "5s");
}

TEST_CASE("--set takes pasted text too, over the file's settings") {
  const Plan plan =
      load({{"pgbench", {{"clients", 8}, {"threads", 4}}}},
           {.sets = {"pgbench.command=pgbench -c 2 -j 1 -T 30 -h db", "postgres.conf=shared_buffers = '1GB'"}});
  const json& resolved = plan.points.at(0).scenario.resolved;
  CHECK(resolved.at("pgbench").at("clients") == 2);
  CHECK(resolved.at("pgbench").at("threads") == 1);
  CHECK(resolved.at("postgres").at("shared_buffers") == "1GB");
  CHECK(plan.warnings == std::vector<std::string>{"--set pgbench.command: ckptsim does not model -h; ignored"});
  CHECK(errors_of(json::object(), {.sets = {"os.sysctl=vm.dirty_ratio = x"}}) ==
        std::vector<std::string>{"--set os.sysctl: line 1: \"x\" is not an integer"});
}

TEST_CASE("synchronous_commit takes its levels, which wait for the local flush without a standby") {
  for (const std::string level : {"local", "remote_write", "remote_apply", "on"}) {
    CAPTURE(level);
    CHECK(resolved({{"postgres", {{"conf", "synchronous_commit = " + level}}}}, "postgres").at("synchronous_commit") ==
          true);
  }
  CHECK(resolved({{"postgres", {{"synchronous_commit", "off"}}}}, "postgres").at("synchronous_commit") == false);
  CHECK(errors_of({{"postgres", {{"synchronous_commit", "remote"}}}}) ==
        std::vector<std::string>{"/postgres/synchronous_commit: \"remote\" is not a boolean (expected on/off, "
                                 "true/false, yes/no, 1/0, local, remote_write, remote_apply)"});
}

TEST_CASE("a minor release runs its major release") {
  CHECK(resolved({{"postgres", {{"version", "15.4"}}}}, "postgres").at("version") == "15");
  CHECK(resolved({{"postgres", {{"version", 15.4}}}}, "postgres").at("version") == "15");
  CHECK(resolved({{"postgres", {{"version", "9.6.24"}}}}, "postgres").at("version") == "9.6");
  CHECK(resolved({{"postgres", {{"version", "9.6"}}}}, "postgres").at("version") == "9.6");
  // 9.6.24 is 9.6's write path, not 9.6 with 15's: the release's preset is laid.
  CHECK(resolved({{"postgres", {{"version", "9.6.24"}}}}, "postgres").at("log_checkpoints") ==
        resolved({{"postgres", {{"version", "9.6"}}}}, "postgres").at("log_checkpoints"));
  for (const std::string bad : {"15.4.1", "9.6.", "15.x", "8.4.22"}) {
    CAPTURE(bad);
    const auto errors = errors_of({{"postgres", {{"version", bad}}}});
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].starts_with("/postgres/version: \"" + bad + "\" is not one of 9.0"));
  }
}

TEST_CASE("every parameter a real PostgreSQL 15 server describes is accepted in postgres.conf") {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/pg15-describe-config-names.txt");
  REQUIRE(in.good());
  std::string conf;
  int names = 0;
  for (std::string name; std::getline(in, name);) {
    if (name.empty() || name[0] == '#') continue;
    // Each with a value of its own type would need the server's types; an error
    // for a modelled name's value is fine here, an unknown name is not.
    conf += name + " = 1\n";
    ++names;
  }
  CHECK(names > 300);
  for (const std::string& error : errors_of({{"postgres", {{"conf", conf}}}})) {
    CAPTURE(error);
    CHECK(error.find("is not a PostgreSQL parameter") == std::string::npos);
  }
}

TEST_CASE(
    "pgbench.command starts with pgbench; environment assignments, shell operators and values pgbench refuses are named") {
  CHECK(refusal("psql -c 4") ==
        "/pgbench/command: \"psql\" is not pgbench: the command starts with pgbench (or a path to it)");
  CHECK(refusal("PGHOST=x pgbench -c 2 -T 10") ==
        "/pgbench/command: environment assignment \"PGHOST=x\" is refused: ckptsim runs no shell; the command "
        "starts with pgbench");
  CHECK(refusal("pgbench -c 2 -T 10 &") ==
        "/pgbench/command: shell operator '&' at character 20 is refused: ckptsim reads the pgbench command line, it "
        "runs no shell (quote it if it is part of a value)");
  CHECK(refusal("pgbench -T 10 | tee log").find("shell operator '|' at character 15") != std::string::npos);
  CHECK(refusal("pgbench -R 0 -T 10") ==
        "/pgbench/command: -R: invalid rate limit: \"0\" (pgbench requires more than 0)");
  CHECK(refusal("pgbench --client=0 -T 10") ==
        "/pgbench/command: --client: -c/--clients must be in range 1..2147483647");
  // A path to pgbench is pgbench; an operator inside quotes is part of a value.
  CHECK(errors_of({{"pgbench", {{"command", "/usr/lib/postgresql/15/bin/pgbench -c 2 -T 10 'db&x'"}}}}).empty());
}

TEST_CASE("every pgbench 15 option's argument is checked as pgbench checks it, and its later checks are made") {
  // option_parse_int's ranges and words.
  CHECK(refusal("pgbench -T 60s") == "/pgbench/command: -T: invalid value \"60s\" for option -T/--time");
  CHECK(refusal("pgbench -T 60 -P 0") == "/pgbench/command: -P: -P/--progress must be in range 1..2147483647");
  CHECK(refusal("pgbench -T 60 -j 3000000000") == "/pgbench/command: -j: -j/--jobs must be in range 1..2147483647");
  CHECK(refusal("pgbench -T 60 -s -1") == "/pgbench/command: -s: -s/--scale must be in range 1..2147483647");
  CHECK(refusal("pgbench -F 5") == "/pgbench/command: -F: -F/--fillfactor must be in range 10..100");
  // Enumerations and the other readings.
  CHECK(refusal("pgbench -T 60 -M fast") ==
        "/pgbench/command: -M: invalid query mode (-M): \"fast\" (expected simple, extended or prepared)");
  CHECK(refusal("pgbench --partition-method=list") ==
        "/pgbench/command: --partition-method: invalid partition method, expecting \"range\" or \"hash\", got: "
        "\"list\"");
  CHECK(refusal("pgbench -T 60 --random-seed=soon") ==
        "/pgbench/command: --random-seed: unrecognized random seed option \"soon\" (expecting an unsigned integer, "
        "\"time\" or \"rand\")");
  CHECK(refusal("pgbench -T 60 -L 0") ==
        "/pgbench/command: -L: invalid latency limit: \"0\" (pgbench requires more than 0)");
  CHECK(refusal("pgbench -T 60 -l --sampling-rate 1.5") ==
        "/pgbench/command: --sampling-rate: invalid sampling rate: \"1.5\" (pgbench requires more than 0 and at most "
        "1)");
  CHECK(refusal("pgbench -T 60 --max-tries=-1") ==
        "/pgbench/command: --max-tries: invalid number of maximum tries: \"-1\"");
  CHECK(refusal("pgbench -T 60 -D x") == "/pgbench/command: -D: invalid variable definition: \"x\"");
  CHECK(refusal("pgbench -I dtx") ==
        "/pgbench/command: -I: unrecognized initialization step \"x\" (allowed step characters are: \"dtgGvpf\")");
  CHECK(refusal("pgbench -b list") == "/pgbench/command: -b: -b list prints the builtin scripts; it runs nothing");
  // The checks pgbench makes once every option is read.
  CHECK(refusal("pgbench -T 60 --sampling-rate 0.5") ==
        "/pgbench/command: --sampling-rate: log sampling (--sampling-rate) is allowed only when logging transactions "
        "(-l)");
  CHECK(refusal("pgbench -T 60 --log-prefix=x") ==
        "/pgbench/command: --log-prefix: log file prefix (--log-prefix) is allowed only when logging transactions "
        "(-l)");
  CHECK(refusal("pgbench -T 60 --progress-timestamp") ==
        "/pgbench/command: --progress-timestamp: --progress-timestamp is allowed only under --progress");
  CHECK(refusal("pgbench -t 100 --max-tries=0") ==
        "/pgbench/command: --max-tries: an unlimited number of transaction tries can only be used with "
        "--latency-limit or a duration (-T)");
  CHECK(refusal("pgbench -T 60 -l --aggregate-interval=7") ==
        "/pgbench/command: --aggregate-interval: duration (60) must be a multiple of aggregation interval (7)");
  CHECK(refusal("pgbench -T 10 -l --aggregate-interval=20") ==
        "/pgbench/command: --aggregate-interval: number of seconds for aggregation (20) must not be higher than test "
        "duration (10)");
  // What pgbench takes, ckptsim takes: a real command with every kind of argument.
  const Plan plan = load({{"pgbench",
                           {{"command",
                             "pgbench -M prepared -P 5 --progress-timestamp -T 60 --random-seed=rand --max-tries=0 "
                             "--verbose-errors -L 50 -c 4 -j 2"}}}});
  CHECK(plan.warnings == std::vector<std::string>{"/pgbench/command: ckptsim does not model --progress-timestamp, "
                                                  "--random-seed, --max-tries, --verbose-errors; ignored"});
}

TEST_CASE("a pasted data_checksums line says where the setting is made, not that it is not modelled") {
  const Plan plan = load({{"postgres", {{"conf", "shared_buffers = 1GB\ndata_checksums = on\n"}}}});
  CHECK(plan.warnings == std::vector<std::string>{"/postgres/conf: line 2: data_checksums is fixed by initdb "
                                                  "(--data-checksums), and the server ignores it in postgresql.conf; "
                                                  "set postgres.data_checksums instead"});
  CHECK_FALSE(plan.points.at(0).scenario.postgres.data_checksums);
}
