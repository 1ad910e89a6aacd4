// End to end through the binary: scenario in, files out; bad input, nothing run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <regex>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/folder/run_files.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

// A short scenario: 1 client, small database.
const char* kSmall = R"({
  "hardware": {"cpus": 4, "ram": "8GB", "device": "nvme"},
  "postgres": {"version": "15", "shared_buffers": "128MB"},
  "pgbench": {"builtin": "tpcb-like", "scale": 10, "clients": 1, "threads": 1, "duration": "20s"},
  "seed": 7
})";

}  // namespace

TEST_CASE("one clock: the CSVs' time_s, their timestamp column, the log and summary.json's checkpoints agree") {
  TempDir tmp("cli-clock");
  write_text(tmp / "s.json", kSmall);
  // A 5 s warmup, then a checkpoint some 30 s into the server's life: about 25 s into the measured run.
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() +
                                 " --quiet --set warmup.duration=5s --set postgres.checkpoint_timeout=30s"
                                 " --set pgbench.duration=60s",
                             tmp);
  REQUIRE(r.exit_code == 0);
  const std::string log = slurp(tmp / "out" / "postgres.log");
  // The prefix's pid is the checkpointer's, whatever the seed made it.
  std::smatch found;
  REQUIRE(std::regex_search(log, found, std::regex(R"( UTC \[[0-9]+\] LOG:  checkpoint starting: time)")));
  const auto at = static_cast<std::size_t>(found.position(0));
  REQUIRE(at >= 6);
  const double logged_s = std::stod(log.substr(at - 6, 6)) + 60 * std::stod(log.substr(at - 9, 2));  // mm:ss.mmm
  const auto summary = nlohmann::json::parse(slurp(tmp / "out" / "summary.json"));
  REQUIRE(!summary["checkpoints"].empty());
  const double start_s = summary["checkpoints"][0]["start_s"].get<double>();
  CHECK(start_s == doctest::Approx(logged_s - 5).epsilon(1e-6));
  CHECK(start_s > 20);
  CHECK(slurp(tmp / "out" / "checkpoints.csv").find(fmt::format("\n{:.3f},", start_s)) != std::string::npos);
  // The progress row of second 25 ends at 10:00:30 on the log's clock.
  const std::string progress = slurp(tmp / "out" / "progress.csv");
  REQUIRE(progress.find("\n25.000,") != std::string::npos);
  const std::string row25 = progress.substr(progress.find("\n25.000,") + 1);
  CHECK(row25.substr(0, row25.find('\n')).ends_with(",2015-08-17 10:00:30.000 UTC"));
  const std::string system = slurp(tmp / "out" / "system.csv");
  CHECK(system.substr(0, system.find('\n')).ends_with(",timestamp"));
}

// GCC 12 warns -Wrestrict inside std::string's copy when a one-character
// literal is concatenated (GCC bug 105329, a false positive fixed in GCC 13).
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
TEST_CASE("system.csv names its rates as rates, under the version's view names") {
  TempDir tmp("cli-rates");
  write_text(tmp / "s.json", kSmall);
  const auto header = [&](const std::string& version) {
    const auto out = tmp / ("v" + version);
    REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() +
                            " --quiet --set pgbench.duration=2s --set postgres.version=" + version + " --out " +
                            out.string(),
                        tmp)
                .exit_code == 0);
    const std::string csv = slurp(out / "system.csv");
    return "," + csv.substr(0, csv.find('\n')) + ",";
  };
  const std::string v15 = header("15"), v17 = header("17");
  for (const char* column : {",buffers_checkpoint_per_s,", ",buffers_backend_per_s,", ",buffers_backend_fsync_per_s,",
                             ",buffers_clean_per_s,", ",wal_mb_per_s,", ",wal_fpi_per_s,"})
    CHECK_MESSAGE(v15.find(column) != std::string::npos, column);
  // iostat -x's merge and request-size columns, per device.
  for (const char* column : {",data_rrqm_s,", ",data_wrqm_s,", ",data_rareq_sz,", ",data_wareq_sz,"})
    CHECK_MESSAGE(v15.find(column) != std::string::npos, column);
  CHECK(v15.find(",buffers_checkpoint,") == std::string::npos);  // a per-second rate is not the cumulative counter
  for (const char* column : {",checkpointer_buffers_written_per_s,", ",io_backend_writes_per_s,",
                             ",io_backend_fsyncs_per_s,", ",buffers_clean_per_s,"})
    CHECK_MESSAGE(v17.find(column) != std::string::npos, column);
  CHECK(v17.find("buffers_checkpoint") == std::string::npos);  // 17 has no such column
}
#pragma GCC diagnostic pop

TEST_CASE("run writes progress.csv with one row per second and the summary's figures") {
  TempDir tmp("cli-run");
  write_text(tmp / "s.json", kSmall);
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() + " --quiet", tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());  // --quiet

  const std::string progress = slurp(tmp / "out" / "progress.csv");
  CHECK(progress.rfind("time_s,tps,latency_avg_ms,latency_stddev_ms,lag_avg_ms,skipped,late,"
                       "latency_p50_ms,latency_p90_ms,latency_p99_ms,latency_max_ms,timestamp\n",
                       0) == 0);
  CHECK(std::count(progress.begin(), progress.end(), '\n') == 21);  // header + 20 one-second rows
  for (const char* f : {"system.csv", "postgres.log", "summary.json", "perf.json"})
    CHECK_MESSAGE(fs::exists(tmp / "out" / f), f);

  const auto summary = nlohmann::json::parse(slurp(tmp / "out" / "summary.json"));
  for (const char* key :
       {"settings", "pgbench", "stability", "sim", "pg_stat_bgwriter", "pg_stat_wal", "os", "devices"})
    CHECK_MESSAGE(summary.contains(key), key);
  // pgbench's tps is transactions over the run; the per-second series has the
  // same mean since a transaction counts in exactly one second.
  const double tps = summary["pgbench"]["tps"].get<double>();
  CHECK(tps == doctest::Approx(summary["pgbench"]["transactions"].get<double>() / 20.0));
  CHECK(summary["stability"]["tps_mean"].get<double>() == doctest::Approx(tps));
  // One client, every transaction commits with a WAL flush: at least one per transaction.
  CHECK(summary["pg_stat_wal"]["wal_records"].get<double>() >= 5 * summary["pgbench"]["transactions"].get<double>());
  CHECK(tps > 100);
  CHECK(summary["settings"]["postgres"]["shared_buffers"] == "128MB");
  CHECK(summary["sim"]["simulated_seconds"].get<double>() == doctest::Approx(20.0));
  // The whole run's latency percentiles, ordered and bounded by the maximum.
  const auto& lat = summary["pgbench"]["latency_ms"];
  REQUIRE(lat.is_object());
  CHECK(lat["p50"].get<double>() > 0);
  CHECK(lat["p50"].get<double>() <= lat["p90"].get<double>());
  CHECK(lat["p90"].get<double>() <= lat["p99"].get<double>());
  CHECK(lat["p99"].get<double>() <= lat["p99_9"].get<double>());
  CHECK(lat["p99_9"].get<double>() <= summary["pgbench"]["latency_max_ms"].get<double>());

  // No temporary file is left behind.
  for (const auto& entry : fs::directory_iterator(tmp / "out"))
    CHECK_MESSAGE(entry.path().filename().string().find(".tmp.") == std::string::npos, entry.path());
}

TEST_CASE("progress lines on stderr, and in pgbench.log, follow pgbench 15's -P format") {
  TempDir tmp("cli-progress");
  write_text(tmp / "s.json", kSmall);
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() +
                                 " --set pgbench.duration=3s --set pgbench.rate=100 --set pgbench.latency_limit=50ms",
                             tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("progress:") == std::string::npos);  // stdout has pgbench's final summary only
  CHECK(r.out.find("number of transactions actually processed") != std::string::npos);
  CHECK(slurp(tmp / "out" / "pgbench.log") == r.err);
  std::istringstream lines(r.err);
  std::string first;
  std::getline(lines, first);
  // "progress: 1.0 s, 97.0 tps, lat 0.350 ms stddev 0.000, 0 failed, lag 0.000 ms, 0 skipped"
  CHECK(first.rfind("progress: 1.0 s, ", 0) == 0);
  CHECK(first.find(" tps, lat ") != std::string::npos);
  CHECK(first.find(" ms stddev ") != std::string::npos);
  CHECK(first.find(", 0 failed, lag ") != std::string::npos);
  CHECK(first.find(" skipped") != std::string::npos);
}

TEST_CASE("one aggregate log per pgbench thread, named by pgbench's pid; the log prefix's pid is the server's") {
  TempDir tmp("cli-aggregate");
  write_text(tmp / "s.json", kSmall);
  // The warmup only carries the server to its first checkpoint (30 s): a paced
  // single client keeps it cheap under the sanitizers.
  auto run = [&](const std::string& out) {
    return run_ckptsim(
        "run " + (tmp / "s.json").string() + " --out " + (tmp / out).string() +
            " --quiet --set pgbench.duration=6s --set pgbench.clients=4 --set pgbench.threads=2"
            " --set pgbench.aggregate_interval=2s --set postgres.checkpoint_timeout=30s"
            " --set warmup.duration=25s --set warmup.threads=1 --set warmup.clients=1 --set warmup.rate=200",
        tmp);
  };
  REQUIRE(run("a").exit_code == 0);
  std::vector<std::string> logs;
  for (const auto& entry : fs::directory_iterator(tmp / "a"))
    if (entry.path().filename().string().starts_with("pgbench_log.")) logs.push_back(entry.path().filename().string());
  std::sort(logs.begin(), logs.end());
  REQUIRE(logs.size() == 2);
  CHECK(logs[1] == logs[0] + ".1");  // pgbench_log.PID for thread 0, pgbench_log.PID.1 for thread 1
  // Each thread's lines: 3 intervals of 6 columns (no -R); their num_tx add up to the run's transactions.
  std::int64_t transactions = 0;
  for (const auto& name : logs) {
    std::istringstream lines(slurp(tmp / "a" / name));
    std::string line;
    int rows = 0;
    while (std::getline(lines, line)) {
      std::istringstream fields(line);
      std::vector<std::string> columns{std::istream_iterator<std::string>(fields), {}};
      CHECK(columns.size() == 15);  // pgbench 15's layout
      transactions += std::stoll(columns.at(1));
      ++rows;
    }
    CHECK(rows == 3);
  }
  const auto summary = nlohmann::json::parse(slurp(tmp / "a" / "summary.json"));
  CHECK(transactions > 0);
  CHECK(transactions == summary["pgbench"]["transactions"].get<std::int64_t>());

  // The checkpointer's pid in the prefix: the same for the same seed, and not a placeholder.
  REQUIRE(run("b").exit_code == 0);
  const std::regex prefix(R"( UTC \[([0-9]+)\] LOG:  checkpoint starting)");
  std::smatch a, b;
  const std::string log_a = slurp(tmp / "a" / "postgres.log"), log_b = slurp(tmp / "b" / "postgres.log");
  REQUIRE(std::regex_search(log_a, a, prefix));
  REQUIRE(std::regex_search(log_b, b, prefix));
  CHECK(a[1] == b[1]);
  CHECK(std::stoi(a[1]) > 1000);
}

TEST_CASE("a bad scenario runs nothing: errors name the JSON path and the exit code is 2") {
  TempDir tmp("cli-bad");
  write_text(tmp / "s.json", R"({"postgres": {"shared_bufers": "2GB", "checkpoint_timeout": "5 minutes"}})");
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string(), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: /postgres/shared_bufers: unknown setting; did you mean shared_buffers?") !=
        std::string::npos);
  CHECK(r.err.find("error: /postgres/checkpoint_timeout: \"5 minutes\" is not a duration") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp / "out"));
}

TEST_CASE("every command-line error exits 2 with a readable message, and runs nothing") {
  TempDir tmp("cli-args");
  const std::string out = " --out " + (tmp / "out").string();
  const struct {
    std::string args, message;
  } cases[] = {
      {"run --jobs 0" + out, "--jobs: expected a whole number from 1 to 4096, not \"0\""},
      {"run --threshold -1" + out, "--threshold: expected a number of tps of at least 0, not \"-1\""},
      {"run --seed -1" + out, "--seed: expected a whole number from 0 to 18446744073709551615, not \"-1\""},
      {"run --seed 18446744073709551616" + out, "not \"18446744073709551616\""},
      {"frobnicate",
       "unknown command \"frobnicate\" (expected one of run, check, analyze, compare, presets, plot, report, index, devbench, calibrate, bench, compare-pg, validate)"},
      {"check s.json extra", "The following argument was not expected: extra"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = run_ckptsim(c.args, tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.err.size() < 300);  // no 300-digit range
  }
  CHECK_FALSE(fs::exists(tmp / "out"));
  CHECK(run_ckptsim("--help", tmp).exit_code == 0);
}

TEST_CASE("a write error on stdout is an error; a closed stdout lets no output file take its place") {
  TempDir tmp("cli-stdout");
  const std::string bin = CKPTSIM_BINARY, err = (tmp / "err.txt").string();
  // /dev/full: ENOSPC on flush.
  int status = std::system((bin + " presets >/dev/full 2>" + err).c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(slurp(err).find("error: writing to standard output failed") != std::string::npos);
  // stdout closed: postgres.log must not be opened as descriptor 1 and receive the -P lines.
  write_text(tmp / "s.json", R"({"hardware": {"ram": "2GB", "device": "nvme"}, "postgres": {"version": "15",
    "shared_buffers": "128MB", "log_checkpoints": true}, "pgbench": {"scale": 2, "duration": "5s"}, "seed": 1})");
  status = std::system(
      (bin + " run " + (tmp / "s.json").string() + " --out " + (tmp / "out").string() + " >&- 2>" + err).c_str());
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(slurp(tmp / "out" / "postgres.log").find("progress:") == std::string::npos);
  CHECK(fs::exists(tmp / "out" / "progress.csv"));
}

TEST_CASE("check prints the resolved settings with presets applied and units normalised") {
  TempDir tmp("cli-check");
  write_text(tmp / "s.json", R"({"postgres": {"version": "9.6", "shared_buffers": 262144}})");
  const auto r = run_ckptsim("check " + (tmp / "s.json").string(), tmp);
  REQUIRE(r.exit_code == 0);
  const auto resolved = nlohmann::json::parse(r.out);
  CHECK(resolved["postgres"]["shared_buffers"] == "2GB");              // 262144 blocks of 8kB
  CHECK(resolved["postgres"]["checkpoint_completion_target"] == 0.5);  // 9.6's default
}

TEST_CASE("pasted settings: a grid run warns once about the real names it ignores, and runs the pasted load") {
  TempDir tmp("cli-paste");
  write_text(tmp / "g.json", R"({
    "postgres": {"conf": "shared_buffers = '64MB'\nmax_connections = 300\nwal_level = minimal\n"},
    "os": {"sysctl": "vm.dirty_background_bytes = 16777216\nvm.swappiness = 1\n"},
    "pgbench": {"scale": 2, "command": "pgbench -n -S -c 2 -j 2 -T 3 -P 1 -h /tmp"},
    "grid": {"postgres.checkpoint_sorting": [true, false]}
  })");
  const auto r = run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --out " + (tmp / "g").string(), tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err ==
        "warning: /postgres/conf: ckptsim does not model wal_level; ignored\n"
        "warning: /os/sysctl: ckptsim does not model vm.swappiness; ignored\n"
        "warning: /pgbench/command: ckptsim does not model -h; ignored\n");
  const auto settings = nlohmann::json::parse(slurp(tmp / "g" / "checkpoint_sorting=false" / "run.json"))["settings"];
  CHECK(settings["postgres"]["shared_buffers"] == "64MB");
  CHECK(settings["os"]["vm.dirty_background_bytes"] == "16MB");
  CHECK(settings["pgbench"]["builtin"] == "select-only");
  CHECK(settings["pgbench"]["threads"] == 2);
  const std::string progress = slurp(tmp / "g" / "checkpoint_sorting=true" / "progress.csv");
  CHECK(std::count(progress.begin(), progress.end(), '\n') == 1 + 3);  // header and -T 3 at -P 1
}

TEST_CASE("a -t run ends when its last client is done, and reports no unfinished interval, as pgbench does") {
  TempDir tmp("cli-count");
  write_text(tmp / "t.json", R"({"hardware": {"ram": "2GB", "device": "nvme"}, "postgres": {"shared_buffers": "64MB"},
    "pgbench": {"scale": 10, "command": "pgbench -c 2 -j 2 -t 5321 -l --aggregate-interval=1"}})");
  REQUIRE(run_ckptsim("run " + (tmp / "t.json").string() + " --quiet --out " + (tmp / "r").string(), tmp).exit_code ==
          0);
  const auto summary = nlohmann::json::parse(slurp(tmp / "r" / "summary.json"))["pgbench"];
  const double duration = summary["duration_s"];
  const std::int64_t transactions = summary["transactions"];
  CHECK(transactions == 2 * 5321);
  const double whole = std::floor(duration);
  CHECK(duration - whole > 0.001);  // not rounded up to an interval's end
  CHECK(summary["tps"].get<double>() == doctest::Approx(static_cast<double>(transactions) / duration));

  // -P lines and progress.csv rows for whole intervals only.
  const std::string log = slurp(tmp / "r" / "pgbench.log");
  CHECK(std::count(log.begin(), log.end(), '\n') == static_cast<long>(whole));
  const std::string progress = slurp(tmp / "r" / "progress.csv");
  CHECK(std::count(progress.begin(), progress.end(), '\n') == 1 + static_cast<long>(whole));
  // The aggregate logs lack the unfinished interval's transactions, as in the
  // real pgbench 15 recordings (tests/analysis/test_pg15_recorded_logs.cpp).
  std::int64_t logged = 0;
  for (const auto& entry : fs::directory_iterator(tmp / "r")) {
    if (!ckptsim::cli::run_files::is_aggregate_log(entry.path().filename().string())) continue;
    std::istringstream rows(slurp(entry.path()));
    for (std::string line; std::getline(rows, line);) logged += std::stoll(line.substr(line.find(' ') + 1));
  }
  CHECK(logged < transactions);
  CHECK(static_cast<double>(transactions - logged) <= 1.25 * summary["tps"].get<double>());
}

TEST_CASE("analyze gives the stability figures of a progress.csv, zero for missing seconds") {
  TempDir tmp("cli-analyze");
  // Seconds 3 and 4 are missing (pgbench printed nothing): they count as 0 tps.
  write_text(tmp / "p.csv", "time_s,tps\n1,100\n2,100\n5,100\n6,100\n");
  const auto r = run_ckptsim("analyze " + (tmp / "p.csv").string() + " --json", tmp);
  REQUIRE(r.exit_code == 0);
  const auto figures = nlohmann::json::parse(r.out);
  CHECK(figures["intervals"] == 6);
  CHECK(figures["tps_mean"].get<double>() == doctest::Approx(400.0 / 6));
  CHECK(figures["pct_below_threshold"].get<double>() == doctest::Approx(100.0 / 3));
  CHECK(figures["tps_min"].get<double>() == 0.0);
}

TEST_CASE("analyze refuses a file with nothing to analyze or figures no run can have, naming the line") {
  TempDir tmp("cli-analyze-bad");
  const struct {
    std::string text, message;
  } cases[] = {
      {"time_s,tps\n", "no rows after the header: nothing to analyze"},
      {"time_s,tps\n1,1e308\n", ":2: tps 1e308 is out of range (0 to 1e9)"},
      {"time_s,tps,skipped,late\n1,5,0,0\n2,5,x,0\n", ":3: skipped \"x\" is not a whole number of transactions"},
      {"time_s,tps,skipped,late\n1,5,0,-4\n", ":2: late \"-4\" is not a whole number of transactions"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    write_text(tmp / "p.csv", c.text);
    const auto r = run_ckptsim("analyze " + (tmp / "p.csv").string(), tmp);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE(
    "analyze reads a real pgbench -P log as pgbench writes it to stderr, and compare sets it beside a simulation") {
  TempDir tmp("cli-analyze-real");
  write_text(tmp / "pgbench-stderr.log",
             "pgbench (15.4)\nstarting vacuum...end.\n"
             "progress: 1.0 s, 500.0 tps, lat 1.998 ms stddev 0.500, 0 failed\n"
             "progress: 2.0 s, 480.0 tps, lat 2.080 ms stddev 0.612, 0 failed\n"
             "progress: 5.0 s, 40.0 tps, lat 99.000 ms stddev 10.000, 0 failed\n");
  const auto r = run_ckptsim("analyze " + (tmp / "pgbench-stderr.log").string() + " --json", tmp);
  REQUIRE(r.exit_code == 0);
  const auto figures = nlohmann::json::parse(r.out);
  CHECK(figures["format"] == "pgbench -P log (15+)");
  CHECK(figures["intervals"] == 5);  // seconds 3 and 4 printed nothing: 0 tps
  CHECK(figures["pct_below_threshold"].get<double>() == doctest::Approx(40.0));
  CHECK(figures["tps_median"].get<double>() == doctest::Approx(40.0));
  CHECK(figures["skipped_pct"].is_null());  // a -P log without -L does not report them

  // The simulated side: a run folder stands for its progress.csv.
  std::filesystem::create_directories(tmp / "sim");
  write_text(tmp / "sim" / "progress.csv",
             "time_s,tps,skipped,late\n1,400,0,0\n2,400,0,0\n3,400,0,0\n4,400,0,0\n5,400,0,0\n");
  const auto c = run_ckptsim("compare " + (tmp / "pgbench-stderr.log").string() + " " + (tmp / "sim").string() +
                                 " --json --out " + tmp.path().string(),
                             tmp);
  REQUIRE(c.exit_code == 0);
  const auto both = nlohmann::json::parse(c.out);
  CHECK(both["real"]["format"] == "pgbench -P log (15+)");
  CHECK(both["simulated"]["format"] == "ckptsim progress.csv");
  CHECK(both["simulated_minus_real"]["tps_mean"].get<double>() == doctest::Approx(400.0 - 204.0));
  CHECK(both["simulated_minus_real"]["pct_below_threshold"].get<double>() == doctest::Approx(-40.0));
  const auto text = run_ckptsim("compare " + (tmp / "pgbench-stderr.log").string() + " " + (tmp / "sim").string() +
                                    " --out " + tmp.path().string(),
                                tmp);
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("+196.0 (+96.1%)") != std::string::npos);
  CHECK(text.out.find("-40.0 points") != std::string::npos);
}

TEST_CASE("presets lists every shipped preset with its description") {
  TempDir tmp("cli-presets");
  const auto r = run_ckptsim("presets", tmp);
  REQUIRE(r.exit_code == 0);
  for (const char* name : {"9.6", "15", "linux-3.2", "raid1-hdd-7200-bbwc", "nvme", "e1-host"})
    CHECK_MESSAGE(r.out.find(name) != std::string::npos, name);
}

TEST_CASE(
    "summary.json: pg_stat_io rows per backend type on 16 and 17 agree with pg_stat_bgwriter / pg_stat_checkpointer") {
  TempDir tmp("cli-pg-stat-io");
  write_text(tmp / "s.json", kSmall);
  for (const std::string version : {"15", "16", "17"}) {
    CAPTURE(version);
    const auto out = tmp / ("v" + version);
    REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + out.string() +
                            " --set postgres.version=" + version +
                            " --set postgres.shared_buffers=16MB --set postgres.max_wal_size=32MB"
                            " --set postgres.track_wal_io_timing=on --set pgbench.duration=10s",
                        tmp)
                .exit_code == 0);
    const auto summary = nlohmann::json::parse(slurp(out / "summary.json"));
    // track_wal_io_timing: the commits' fdatasyncs take time.
    CHECK(summary["pg_stat_wal"]["wal_sync_time"].get<double>() > 0);
    CHECK(summary["pg_stat_wal"].contains("wal_write_time"));
    if (version == "15") {
      CHECK_FALSE(summary.contains("pg_stat_io"));
      continue;
    }
    const auto& io = summary["pg_stat_io"];
    REQUIRE(io.is_array());
    REQUIRE(io.size() == 3);
    CHECK(io[0]["backend_type"] == "client backend");
    CHECK(io[1]["backend_type"] == "checkpointer");
    CHECK(io[2]["backend_type"] == "background writer");
    const auto& bg = summary["pg_stat_bgwriter"];
    const std::int64_t checkpoint_writes = version == "17"
                                               ? summary["pg_stat_checkpointer"]["buffers_written"].get<std::int64_t>()
                                               : bg["buffers_checkpoint"].get<std::int64_t>();
    CHECK(checkpoint_writes > 0);
    CHECK(io[1]["writes"].get<std::int64_t>() == checkpoint_writes);
    CHECK(io[2]["writes"].get<std::int64_t>() == bg["buffers_clean"].get<std::int64_t>());
    CHECK(io[0]["evictions"].get<std::int64_t>() > 0);  // 16MB of shared buffers over scale 10
    if (version == "16") {
      CHECK(io[0]["writes"].get<std::int64_t>() + io[0]["extends"].get<std::int64_t>() ==
            bg["buffers_backend"].get<std::int64_t>());
      CHECK(io[0]["fsyncs"].get<std::int64_t>() == bg["buffers_backend_fsync"].get<std::int64_t>());
    }
    // Counts a backend type never has are NULL, as in the view.
    for (const char* column : {"extends", "evictions"}) {
      CHECK(io[1][column].is_null());
      CHECK(io[2][column].is_null());
    }
  }
}
