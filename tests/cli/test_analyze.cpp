// tests/cli/test_analyze.cpp: `ckptsim analyze` and `ckptsim compare` on real
// pgbench logs as a user hands them over: a recorded PostgreSQL 15 run with a
// stall's late line, a --interval finer than the log, a field no pgbench
// prints, and names and lines holding terminal control characters.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

// The -P log (stderr) of the recorded real PostgreSQL 15 case `name`.
std::string recorded_progress_log(const std::string& name) {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/tests/data/pg15-recorded-logs.json");
  const nlohmann::json recorded = nlohmann::json::parse(in);
  for (const auto& c : recorded.at("cases")) {
    if (c.at("name") == name) return c.at("real_progress_log");
  }
  FAIL("no recorded case " << name);
  return "";
}

// 5 s of 100 tps: the simulated side.
void write_simulated(const fs::path& dir) {
  fs::create_directories(dir);
  write_text(dir / "progress.csv", "time_s,tps\n1,100\n2,100\n3,100\n4,100\n5,100\n");
}

}  // namespace

TEST_CASE("compare judges the recorded PostgreSQL 15 -P log at 1 s, a stall's late line included") {
  TempDir tmp("analyze-pg15");
  write_simulated(tmp / "sim");
  std::string log = recorded_progress_log("simple-update lru_maxpages=0");
  write_text(tmp / "pg15.log", log);
  // The same log as if pgbench had stalled from 97 s to 99.6 s: the 98 s report
  // missing, the 99 s one printed late at 99.6 s, the 100 s one on time.
  const std::regex second_98("progress: 98\\.0 s, [^\\n]*\\n"), second_99("progress: 99\\.0 s, [0-9.]+ tps");
  REQUIRE(std::regex_search(log, second_98));
  log = std::regex_replace(std::regex_replace(log, second_98, ""), second_99, "progress: 99.6 s, 12.0 tps");
  write_text(tmp / "pg15-stalled.log", log);

  for (const char* file : {"pg15.log", "pg15-stalled.log"}) {
    CAPTURE(file);
    const auto r = run_ckptsim(
        "compare " + quoted(tmp / file) + " " + quoted(tmp / "sim") + " --json --out " + quoted(tmp.path()), tmp);
    REQUIRE(r.exit_code == 0);
    const auto real = nlohmann::json::parse(r.out)["real"];
    CHECK(real["format"] == "pgbench -P log (15+)");
    CHECK(real["interval_s"] == 1.0);
    CHECK(real["intervals"] == 158);  // lines at 1.0 s to 158.0 s
    const auto text =
        run_ckptsim("compare " + quoted(tmp / file) + " " + quoted(tmp / "sim") + " --out " + quoted(tmp.path()), tmp);
    CHECK(text.out.find("\ninterval              1 s                           1 s") != std::string::npos);
    CHECK(text.err.find("different intervals") == std::string::npos);
  }
  // By hand: second 98 has no line (0 tps), second 99 the late line's 12 tps,
  // the others 213 to 299 tps: 1 of 158 seconds below 10 tps.
  const auto stalled =
      nlohmann::json::parse(run_ckptsim("analyze " + quoted(tmp / "pg15-stalled.log") + " --json", tmp).out);
  CHECK(stalled["pct_below_threshold"].get<double>() == doctest::Approx(100.0 / 158));
  CHECK(stalled["tps_min"] == 0.0);
}

TEST_CASE("--interval below the log's spacing: exit 2, naming the option, the value and the spacing") {
  TempDir tmp("analyze-interval");
  write_simulated(tmp / "sim");
  write_text(tmp / "p.log",
             "progress: 1.0 s, 100.0 tps, lat 1.0 ms stddev 0.1\n"
             "progress: 2.0 s, 100.0 tps, lat 1.0 ms stddev 0.1\n"
             "progress: 3.7 s, 10.0 tps, lat 1.0 ms stddev 0.1\n"
             "progress: 4.0 s, 100.0 tps, lat 1.0 ms stddev 0.1\n");
  const std::string message =
      "error: " + (tmp / "p.log").string() + ": --interval 0.5 is below the 1 s spacing of the file's intervals";
  for (const std::string& command :
       {"analyze " + quoted(tmp / "p.log") + " --interval 0.5",
        "compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") + " --interval 0.5"}) {
    CAPTURE(command);
    const auto r = run_ckptsim(command, tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.starts_with(message));
    CHECK(r.out.empty());
  }
  // Its own interval, given or not: seconds 1, 2, 3 (the late 3.7 s line), 4.
  for (const std::string option : {"", " --interval 1"}) {
    const auto r = run_ckptsim("analyze " + quoted(tmp / "p.log") + option + " --json", tmp);
    REQUIRE(r.exit_code == 0);
    CHECK(nlohmann::json::parse(r.out)["intervals"] == 4);
  }
}

TEST_CASE("analyze on a -P line with a 30000-digit tps: exit 2 naming the file, line and field, no crash") {
  TempDir tmp("analyze-digits");
  write_text(tmp / "p.log",
             "pgbench (15.4)\nprogress: 1.0 s, " + std::string(30000, '9') + " tps, lat 1.0 ms stddev 0.1, 0 failed\n");
  const auto r = run_ckptsim("analyze " + quoted(tmp / "p.log"), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.starts_with("error: " + (tmp / "p.log").string() + ":2: tps 9999"));
  CHECK(r.err.find("(30000 characters) is out of range") != std::string::npos);
}

TEST_CASE("analyze and compare print a name's and a line's control characters escaped, never raw") {
  TempDir tmp("analyze-escapes");
  write_simulated(tmp / "sim");
  // A title-changing OSC in the name, a colour in the line.
  const fs::path log = tmp / "x\x1b]0;owned\x07.log";
  write_text(log, "progress: 1.0 s, \x1b[31mred\x9b tps\n");
  for (const std::string& command : {"analyze " + quoted(log), "compare " + quoted(log) + " " + quoted(tmp / "sim") +
                                                                   " --out " + quoted(tmp.path())}) {
    CAPTURE(command);
    const auto r = run_ckptsim(command, tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find('\x07') == std::string::npos);
    CHECK(
        r.err.find("x\\x1b]0;owned\\x07.log:1: \"progress: 1.0 s, \\x1b[31mred\\x9b tps\" is not a pgbench -P line") !=
        std::string::npos);
  }
  // A stopped run's summary.json says what stopped it: shown, not obeyed.
  write_text(tmp / "sim" / "summary.json", R"({"complete": false, "stopped_by": "SIGINT\u001b[2J"})");
  const auto r = run_ckptsim("analyze " + quoted(tmp / "sim"), tmp);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("(SIGINT\\x1b[2J)") != std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
}

TEST_CASE("analyze on a grid folder: one row per point in grid order, a point not yet run left out by name") {
  TempDir tmp("analyze-grid");
  const fs::path grid = tmp / "g";
  write_simulated(grid / "sorting=true");
  fs::create_directories(grid / "sorting=false");
  write_text(grid / "sorting=false" / "progress.csv", "time_s,tps\n1,100\n2,0\n3,5\n4,100\n");
  fs::create_directories(grid / "sorting=off");  // not run yet: no progress.csv
  write_text(grid / "grid.json", R"({"title": "g", "points": ["sorting=true", "sorting=false", "sorting=off"]})");
  const auto r = run_ckptsim("analyze " + quoted(grid) + " --json", tmp);
  REQUIRE(r.exit_code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["points"].size() == 2);
  CHECK(doc["points"][0]["point"] == "sorting=true");
  CHECK(doc["points"][0]["tps_mean"] == 100.0);
  CHECK(doc["points"][1]["point"] == "sorting=false");
  CHECK(doc["points"][1]["pct_below_threshold"] == 50.0);  // 0 and 5 tps of 4 seconds
  CHECK(doc["points"][1]["failed"].is_null());             // ckptsim's progress.csv has no failed column
  CHECK(r.err.find("sorting=off") != std::string::npos);
  const auto text = run_ckptsim("analyze " + quoted(grid), tmp);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("\nsorting=false") != std::string::npos);
  CHECK(text.out.find("    50.0%") != std::string::npos);
}

TEST_CASE("compare --interval 5 holds a -P 1 log against a 1 s simulation at 5 s, both merged") {
  TempDir tmp("analyze-merge");
  write_simulated(tmp / "sim");
  std::string log;
  for (int second = 1; second <= 5; ++second)
    log += fmt::format("progress: {}.0 s, {}.0 tps, lat 1.0 ms stddev 0.1, 1 failed\n", second, 20 * second);
  write_text(tmp / "p.log", log);
  const auto r = run_ckptsim("compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") +
                                 " --interval 5 --json --out " + quoted(tmp.path()),
                             tmp);
  REQUIRE(r.exit_code == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["real"]["intervals"] == 1);
  CHECK(doc["real"]["tps_mean"] == 60.0);  // (20 + 40 + 60 + 80 + 100) / 5
  CHECK(doc["real"]["failed"] == 5);
  CHECK(doc["simulated"]["intervals"] == 1);
  CHECK(doc["simulated"]["interval_s"] == 5.0);
  CHECK(doc["simulated_minus_real"]["tps_mean"] == 40.0);
}

TEST_CASE(
    "compare draws both runs' tps on one time axis, the simulation's checkpoints shaded, the figures in the key") {
  TempDir tmp("compare-plot");
  write_simulated(tmp / "sim");
  write_text(tmp / "sim" / "checkpoints.csv",
             "start_s,write_end_s,sync_end_s,cause,buffers,distance_kb\n1.000,3.000,3.500,time,10,100\n");
  write_text(tmp / "p.log",
             "progress: 1.0 s, 50.0 tps, lat 1.0 ms stddev 0.1\nprogress: 2.0 s, 0.0 tps, lat 1.0 ms stddev 0.1\n");
  fs::create_directories(tmp / "pics");
  const auto r = run_ckptsim(
      "compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") + " --out " + quoted(tmp / "pics"), tmp);
  REQUIRE(r.exit_code == 0);
  const std::string script = slurp(tmp / "pics" / "compare.gp");
  CHECK(script.find("$real << EOD\n1 50\n2 0\nEOD\n") != std::string::npos);
  CHECK(script.find("$simulated << EOD\n1 100\n2 100\n3 100\n4 100\n5 100\nEOD\n") != std::string::npos);
  // The write phase light from 1 s to 3 s, the sync phase dark to 3.5 s.
  CHECK(script.find("set object 1 rect from first 1.000, graph 0 to first 3.000") != std::string::npos);
  CHECK(script.find("set object 2 rect from first 3.000, graph 0 to first 3.500") != std::string::npos);
  CHECK(script.find("tps 25.0 ± 25.0, median 25.0, 50.0% of intervals below 10 tps") != std::string::npos);
  CHECK(script.find("tps 100.0 ± 0.0, median 100.0, 0.0% of intervals below 10 tps") != std::string::npos);
  if (std::system("gnuplot --version >/dev/null 2>&1") == 0) {
    CHECK(fs::file_size(tmp / "pics" / "compare.png") > 1000);
    CHECK(slurp(tmp / "pics" / "compare.svg").find("</svg>") != std::string::npos);
  }
  // Drawn again over its own files: they are ckptsim's.
  CHECK(run_ckptsim("compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") + " --out " + quoted(tmp / "pics"),
                    tmp)
            .exit_code == 0);
  // --out is made when missing, as run --out is.
  const auto made = run_ckptsim(
      "compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") + " --out " + quoted(tmp / "nowhere" / "a"), tmp);
  CHECK(made.exit_code == 0);
  CHECK(fs::exists(tmp / "nowhere" / "a" / "compare.gp"));
}

TEST_CASE("compare never overwrites a user's compare.png, .svg or .gp: the folder is refused, the files stay") {
  TempDir tmp("compare-foreign");
  write_simulated(tmp / "sim");
  write_text(tmp / "p.log", "progress: 1.0 s, 50.0 tps, lat 1.0 ms stddev 0.1\n");
  for (const char* name : {"compare.png", "compare.svg", "compare.gp"}) {
    CAPTURE(name);
    const fs::path mine = tmp / (std::string("c-") + name);
    fs::create_directories(mine);
    write_text(mine / name, "mine");
    const auto r = run_ckptsim("compare " + quoted(tmp / "p.log") + " " + quoted(tmp / "sim") + " --out " + quoted(mine),
                               tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(name + std::string(": exists and is not ckptsim's")) != std::string::npos);
    CHECK(slurp(mine / name) == "mine");
    CHECK(r.out.empty());
  }
}

TEST_CASE("analyze reads only regular files, a line at a time: a device, a 2 MiB line and a 10^8 s gap are errors") {
  TempDir tmp("analyze-bounded");
  // /dev/zero never ends: refused by its type, before anything is read.
  const auto zero = run_ckptsim("analyze /dev/zero", tmp);
  CHECK(zero.exit_code == 2);
  CHECK(zero.err ==
        "error: /dev/zero: not a regular file (a pipe or a device cannot be analyzed: save the output to "
        "a file first)\n");

  // One line of 2 MiB: refused at the 1 MiB limit, naming the line, not read whole.
  write_text(tmp / "one-line.log", "progress: 1.0 s, 100.0 tps, lat 1 ms stddev 1\n" + std::string(2 << 20, 'x'));
  const auto long_line = run_ckptsim("analyze " + quoted(tmp / "one-line.log"), tmp);
  CHECK(long_line.exit_code == 2);
  CHECK(long_line.err.find("one-line.log:2: a line longer than 1 MiB") != std::string::npos);

  // The same limit in a CSV.
  write_text(tmp / "wide.csv", "time_s,tps\n1," + std::string(2 << 20, '1') + "\n");
  const auto wide = run_ckptsim("analyze " + quoted(tmp / "wide.csv"), tmp);
  CHECK(wide.exit_code == 2);
  CHECK(wide.err.find("wide.csv:2: a line longer than 1 MiB") != std::string::npos);

  // A second line 10^8 s after the first would need 10^8 intervals: both lines named.
  write_text(tmp / "gap.log",
             "progress: 1.0 s, 100.0 tps, lat 1 ms stddev 1\nprogress: 100000000.0 s, 100.0 tps, lat 1 ms stddev 1\n");
  const auto gap = run_ckptsim("analyze " + quoted(tmp / "gap.log"), tmp);
  CHECK(gap.exit_code == 2);
  CHECK(gap.err.find("gap.log:2: time 100000000 is more than 10000000 intervals of 1 s after the run's start (the "
                     "reading before, line 1, is at time 1)") != std::string::npos);
}
