// tests/cli/test_grid_shares.cpp
//
// Grids that share warmups, repeat, and run in shares (cli/run/warmup_group.h,
// scenarios/repeat.h, cli/commands/grid_shares.h, cli/report/grid_report.h):
// every way of running a grid's points leaves, after `ckptsim report`, the
// bytes of the grid run in one process (perf.json and the index pages, which
// name their folder and perf.json's size, aside).
#include <doctest/doctest.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

// Four points that differ only in settings a reload applies: one warmup group.
const char* kReloadGrid = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"version": "9.6", "shared_buffers": "64MB", "checkpoint_timeout": "30s", "log_checkpoints": true},
  "pgbench": {"scale": 5, "clients": 2, "threads": 1, "duration": "12s"},
  "warmup": {"duration": "35s"},
  "grid": {"postgres.checkpoint_flush_after": [0, "256kB"], "postgres.bgwriter_lru_maxpages": [0, 100]},
  "seed": 3
})";

// Six points in three warmup groups: the warmup inherits pgbench's clients.
const char* kSixPoints = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"version": "9.6", "shared_buffers": "64MB", "checkpoint_timeout": "30s"},
  "pgbench": {"scale": 5, "clients": 2, "threads": 1, "duration": "8s"},
  "warmup": {"duration": "5s"},
  "grid": {"postgres.checkpoint_completion_target": [0.5, 0.9], "pgbench.clients": [1, 2, 4]},
  "seed": 5
})";

// Every file but perf.json and the HTML pages, by relative path (plots included).
std::map<std::string, std::string> grid_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename() == "perf.json" || entry.path().extension() == ".html")
      continue;
    files[fs::relative(entry.path(), dir).string()] = slurp(entry.path());
  }
  return files;
}

void check_same_files(const fs::path& expected, const fs::path& got) {
  const auto a = grid_files(expected), b = grid_files(got);
  CHECK(a.size() == b.size());
  for (const auto& [name, text] : a) {
    INFO(name);
    REQUIRE(b.count(name) == 1);
    CHECK(b.at(name) == text);
  }
}

nlohmann::json read_json(const fs::path& path) { return nlohmann::json::parse(slurp(path)); }

}  // namespace

TEST_CASE("points that share a warmup write the bytes each writes after a warmup of its own") {
  TempDir tmp("shared-warmup");
  write_text(tmp / "g.json", kReloadGrid);
  const auto one = run_ckptsim("run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "one") + " -j 2 -q", tmp);
  REQUIRE(one.exit_code == 0);
  const nlohmann::json grid = read_json(tmp / "one" / "grid.json");
  REQUIRE(grid["points"].size() == 4);
  const std::string first = grid["points"][0];
  for (const auto& name : grid["points"]) {
    const std::string point = name;
    INFO(point);
    // Each point alone: its own host and warmup, in a process of its own.
    const auto alone = run_ckptsim("run " + quoted(tmp / "g.json") + " --point " + quoted(fs::path(point)) + " --out " +
                                       quoted(tmp / "alone" / point) + " -q",
                                   tmp);
    REQUIRE(alone.exit_code == 0);
    const nlohmann::json record = read_json(tmp / "one" / point / "run.json");
    CHECK(record["warmup_shared_with"] == first);
    // The scenario's own values (9.6: flush_after 256kB, maxpages 100) need no reload.
    CHECK(record.contains("reloaded_after_warmup") ==
          (point != "checkpoint_flush_after=256kB,bgwriter_lru_maxpages=100"));
  }
  // A point whose settings were reloaded says so in its log, once, after the warmup's lines.
  const std::string log = slurp(tmp / "one" / "checkpoint_flush_after=0,bgwriter_lru_maxpages=0" / "postgres.log");
  CHECK(log.find("received SIGHUP, reloading configuration files") != std::string::npos);
  CHECK(log.find("checkpoint starting") < log.find("received SIGHUP"));
  REQUIRE(run_ckptsim("report " + quoted(tmp / "alone"), tmp).exit_code == 0);
  check_same_files(tmp / "one", tmp / "alone");
}

TEST_CASE("a grid run as three shards in three processes, then reported, gives the one-process files") {
  TempDir tmp("shards");
  write_text(tmp / "g.json", kSixPoints);
  REQUIRE(run_ckptsim("run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "one") + " -j 2 -q", tmp).exit_code ==
          0);
  const std::string shard = std::string(CKPTSIM_BINARY) + " run " + quoted(tmp / "g.json") + " --out " +
                            quoted(tmp / "sharded") + " -j 1 -q --shard ";
  const std::string three = shard + "1/3 & " + shard + "2/3 & " + shard + "3/3 & wait";
  REQUIRE(std::system(three.c_str()) == 0);
  // Each share ran two points, and wrote no table of its own.
  std::size_t points = 0;
  for (const auto& entry : fs::directory_iterator(tmp / "sharded")) points += entry.is_directory() ? 1 : 0;
  CHECK(points == 6);
  CHECK_FALSE(fs::exists(tmp / "sharded" / "summary.csv"));
  const auto report = run_ckptsim("report " + quoted(tmp / "sharded"), tmp);
  CHECK(report.exit_code == 0);
  CHECK(report.out == slurp(tmp / "one" / "report.txt"));
  check_same_files(tmp / "one", tmp / "sharded");
}

TEST_CASE("--list-points run through GNU parallel, then reported, gives the one-process files") {
  if (std::system("command -v parallel >/dev/null 2>&1") != 0) {
    FAIL("GNU parallel is not installed (scripts/setup installs it)");
  }
  TempDir tmp("parallel");
  write_text(tmp / "g.json", kSixPoints);
  REQUIRE(run_ckptsim("run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "one") + " -j 2 -q", tmp).exit_code ==
          0);
  const auto listed =
      run_ckptsim("run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "par") + " --list-points", tmp);
  REQUIRE(listed.exit_code == 0);
  // One line per point, each its own --out under the grid folder, and nothing run yet.
  CHECK(std::count(listed.out.begin(), listed.out.end(), '\n') == 6);
  CHECK(listed.out.find("--point checkpoint_completion_target=0.9,clients=4 --out " + (tmp / "par").string() +
                        "/checkpoint_completion_target=0.9,clients=4\n") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp / "par"));
  write_text(tmp / "points.txt", listed.out);
  REQUIRE(std::system(("parallel -j 2 < " + quoted(tmp / "points.txt")).c_str()) == 0);
  REQUIRE(run_ckptsim("report " + quoted(tmp / "par"), tmp).exit_code == 0);
  check_same_files(tmp / "one", tmp / "par");
}

TEST_CASE("ckptsim report names the points that are missing or incomplete and exits 1") {
  TempDir tmp("report-missing");
  write_text(tmp / "g.json", kSixPoints);
  const std::string run = "run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "g") + " -j 2";
  REQUIRE(run_ckptsim(run + " -q --shard 2/2", tmp).exit_code == 0);
  const auto report = run_ckptsim("report " + quoted(tmp / "g"), tmp);
  CHECK(report.exit_code == 1);
  // Share 2 of 2: the second, fourth and sixth points of the grid's order.
  for (const char* missing :
       {"checkpoint_completion_target=0.5,clients=1", "checkpoint_completion_target=0.5,clients=4",
        "checkpoint_completion_target=0.9,clients=2"}) {
    CHECK(report.err.find(missing) != std::string::npos);
  }
  CHECK(slurp(tmp / "g" / "report.txt").find("missing or incomplete: 3 of 6 points") != std::string::npos);
  // The rest, then: only the missing three run (the others are kept), and the report is whole.
  const auto rest = run_ckptsim(run + " -q --shard 1/2", tmp);
  CHECK(rest.exit_code == 0);
  CHECK(run_ckptsim("report " + quoted(tmp / "g"), tmp).exit_code == 0);
  CHECK(slurp(tmp / "g" / "report.txt").find("missing") == std::string::npos);
  const auto again = run_ckptsim(run, tmp);
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("kept 6 of 6 points") != std::string::npos);
}

TEST_CASE("bad --shard values and splitting what cannot be split are refused") {
  TempDir tmp("shard-refusals");
  write_text(tmp / "g.json", kSixPoints);
  for (const auto& [value, why] :
       std::vector<std::pair<std::string, std::string>>{{"0/3", "shares are numbered from 1"},
                                                        {"4/3", "names share 4 of only 3"},
                                                        {"2", "is not I/K"},
                                                        {"a/b", "is not I/K"},
                                                        {"1/0", "has no shares"},
                                                        {"-1/3", "is not I/K"}}) {
    INFO(value);
    const auto r =
        run_ckptsim("run " + quoted(tmp / "g.json") + " --out " + quoted(tmp / "o") + " --shard " + value, tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(why) != std::string::npos);
  }
  CHECK_FALSE(fs::exists(tmp / "o"));
  const auto unknown =
      run_ckptsim("run " + quoted(tmp / "g.json") + " --point nosuch --out " + quoted(tmp / "o" / "nosuch"), tmp);
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("is not a point of the grid") != std::string::npos);
}

TEST_CASE("a repeated scenario runs each point again with a derived seed, interleaved, and resumes what is missing") {
  TempDir tmp("repeat");
  write_text(tmp / "g.json", kSixPoints);
  // Without a grid: "repeat=K" folders; repeat 1 is the run without "repeat".
  write_text(tmp / "s.json", R"({
    "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
    "postgres": {"version": "9.6", "shared_buffers": "64MB", "checkpoint_timeout": "30s"},
    "pgbench": {"scale": 5, "clients": 2, "threads": 1, "duration": "8s"},
    "warmup": {"duration": "5s"}, "seed": 5, "repeat": 2})");
  REQUIRE(run_ckptsim("run " + quoted(tmp / "s.json") + " --out " + quoted(tmp / "rep") + " -q", tmp).exit_code == 0);
  REQUIRE(run_ckptsim("run " + quoted(tmp / "s.json") + " --set repeat=1 --out " + quoted(tmp / "once") + " -q", tmp)
              .exit_code == 0);
  CHECK(slurp(tmp / "rep" / "repeat=1" / "summary.json") == slurp(tmp / "once" / "summary.json"));
  CHECK(slurp(tmp / "rep" / "repeat=2" / "summary.json") != slurp(tmp / "once" / "summary.json"));
  const nlohmann::json second = read_json(tmp / "rep" / "repeat=2" / "run.json");
  CHECK(second["repeat"] == 2);
  CHECK(second["repeat_of"] == "");
  CHECK(second["settings"]["seed"] != 5);
  // A grid's repeats, interleaved: every point's repeat 1, then every point's repeat 2.
  const auto listed = run_ckptsim("run " + quoted(tmp / "g.json") + " --set repeat=2 --list-points", tmp);
  const auto at = [&](const std::string& name) { return listed.out.find("--point " + name + " "); };
  CHECK(at("checkpoint_completion_target=0.9,clients=4,repeat=1") <
        at("checkpoint_completion_target=0.5,clients=1,repeat=2"));
  // A killed repeat (its summary.json never written) is all a rerun runs again.
  fs::remove(tmp / "rep" / "repeat=2" / "summary.json");
  const auto again = run_ckptsim("run " + quoted(tmp / "s.json") + " --out " + quoted(tmp / "rep"), tmp);
  CHECK(again.exit_code == 0);
  CHECK(again.err.find("kept 1 of 2 points") != std::string::npos);
  CHECK(fs::exists(tmp / "rep" / "repeat=2" / "summary.json"));
}
