// ckptsim run --crash-at: a power loss at a simulated time and what crash.json
// says recovery would find (cli/report/crash_report.h, models/postgres/crash.h).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
using json = nlohmann::json;

namespace {

// A checkpoint every 30 s on a 7200 rpm disk with its write cache on: the
// first one starts at 30 s and ends near 57 s, in a sync phase of a few tenths.
const char* kScenario = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"shared_buffers": "64MB", "checkpoint_timeout": "30s"},
  "pgbench": {"scale": 20, "clients": 2, "duration": "90s"},
  "seed": 11
})";

struct Crash {
  json report;
  json summary;
};

Crash crash_at(const TempDir& tmp, double seconds, const std::string& sets = "") {
  const auto out = tmp / "crash";
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + out.string() + " " + sets +
                                 " --crash-at " + std::to_string(seconds) + "s",
                             tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return {json::parse(slurp(out / "crash.json")), json::parse(slurp(out / "summary.json"))};
}

// When the first checkpoint's sync phase runs, from an uninterrupted run's summary.
std::pair<double, double> first_sync_phase(const TempDir& tmp) {
  REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "ref").string(), tmp).exit_code ==
          0);
  const json first = json::parse(slurp(tmp / "ref" / "summary.json"))["checkpoints"].at(0);
  const double sync_start = first["start_s"].get<double>() + first["write_s"].get<double>();
  return {sync_start, sync_start + first["sync_s"].get<double>()};
}

}  // namespace

TEST_CASE("a checkpoint interrupted in its fsync phase: recovery starts at the previous redo point") {
  TempDir tmp("crash-sync");
  write_text(tmp / "s.json", kScenario);
  const auto [sync_start, sync_end] = first_sync_phase(tmp);
  REQUIRE(sync_end - sync_start > 0.05);

  const Crash during = crash_at(tmp, (sync_start + sync_end) / 2);
  const Crash after = crash_at(tmp, sync_end + 0.5);
  CHECK(during.report["checkpoint"]["in_progress_phase"] == "sync");
  CHECK(after.report["checkpoint"]["in_progress_phase"] == "idle");
  // The interrupted checkpoint does not count: its redo point is not where recovery starts.
  CHECK(during.report["checkpoint"]["redo_lsn"] != after.report["checkpoint"]["redo_lsn"]);
  CHECK(during.report["redo_distance_bytes"].get<double>() > 2 * after.report["redo_distance_bytes"].get<double>());
  CHECK(during.report["recovery_time_estimate_s"].get<double>() >
        after.report["recovery_time_estimate_s"].get<double>());
  // Its data writes are not all fsynced yet, and with fsync and synchronous_commit on, barriers
  // on, nothing acknowledged is lost.
  CHECK(during.report["unsynced_data_pages"].get<int>() > 0);
  CHECK(during.report["lost_committed_transactions"] == 0);
  CHECK(after.report["lost_committed_transactions"] == 0);
  CHECK(during.report["recovery_possible"] == true);
  CHECK(during.report["acknowledged_commits"].get<int>() > 1000);
  // The WAL not yet durable is at most what was never fdatasynced.
  CHECK(during.report["unflushed_wal_bytes"].get<double>() <=
        during.report["wal"]["in_wal_buffers_bytes"].get<double>() +
            during.report["wal"]["written_not_flushed_bytes"].get<double>());
  // The run's files end at the power loss.
  CHECK(during.summary["complete"] == true);
  CHECK(during.summary["crash_at_s"].get<double>() == doctest::Approx((sync_start + sync_end) / 2));
}

TEST_CASE(
    "acknowledged commits are lost with synchronous_commit off, or with a disk cache that nobarrier never flushes") {
  TempDir tmp("crash-lost");
  write_text(tmp / "s.json", kScenario);
  const double t = 45.3;  // mid write phase
  const Crash safe = crash_at(tmp, t);
  const Crash async = crash_at(tmp, t, "--set postgres.synchronous_commit=off");
  const Crash lying = crash_at(tmp, t, "--set os.barrier=false");
  CHECK(safe.report["lost_committed_transactions"] == 0);
  CHECK(async.report["lost_committed_transactions"].get<int>() > 0);
  CHECK(lying.report["lost_committed_transactions"].get<int>() > 0);
  // synchronous_commit off loses at most what the WAL writer had not flushed: 3 x wal_writer_delay (200ms) of commits.
  const double async_tps = async.summary["pgbench"]["tps"].get<double>();
  CHECK(async.report["lost_committed_transactions"].get<double>() <= 0.6 * async_tps + 10);
  // An SSD without a volatile cache keeps what nobarrier did not flush: nothing is lost.
  const Crash ssd = crash_at(tmp, t, "--set os.barrier=false --set hardware.device=nvme");
  CHECK(ssd.report["lost_committed_transactions"] == 0);
}

TEST_CASE("without full_page_writes, recovery reads the pages it changes at the disk's random-read time") {
  TempDir tmp("crash-fpw");
  write_text(tmp / "s.json", kScenario);
  const Crash with = crash_at(tmp, 45.3);
  const Crash without = crash_at(tmp, 45.3, "--set postgres.full_page_writes=off");
  CHECK(with.report["recovery"]["page_reads"] == 0);
  const int reads = without.report["recovery"]["page_reads"].get<int>();
  CHECK(reads > 1000);
  // A 7200 rpm disk: 8.5 ms average seek, 4.2 ms half turn, a little transfer and firmware.
  const double read_ms = without.report["recovery"]["random_read_ms"].get<double>();
  CHECK(read_ms == doctest::Approx(12.9).epsilon(0.02));
  CHECK(without.report["recovery"]["page_reads_s"].get<double>() == doctest::Approx(reads * read_ms / 1000));
  // Images make the WAL larger but spare the reads.
  CHECK(with.report["redo_distance_bytes"].get<double>() > 5 * without.report["redo_distance_bytes"].get<double>());
  CHECK(without.report["recovery_time_estimate_s"].get<double>() >
        with.report["recovery_time_estimate_s"].get<double>());
}

TEST_CASE("--crash-at must fall inside the measured run") {
  TempDir tmp("crash-args");
  write_text(tmp / "s.json", kScenario);
  const std::string run = "run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "o").string();
  const auto late = run_ckptsim(run + " --crash-at 91s", tmp);
  CHECK(late.exit_code == 2);
  CHECK(late.err.find("--crash-at 91s is after the run's end (90s of /pgbench/duration)") != std::string::npos);
  const auto bad = run_ckptsim(run + " --crash-at soon", tmp);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--crash-at: \"soon\" is not a duration") != std::string::npos);
  CHECK(run_ckptsim(run + " --crash-at 0s", tmp).exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(tmp / "o"));
}
