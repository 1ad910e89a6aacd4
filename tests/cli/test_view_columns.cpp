// tests/cli/test_view_columns.cpp
//
// summary.json's views, release by release, against the columns PostgreSQL's
// documentation gives them (doc/src/sgml/monitoring.sgml, "Statistics
// Views"): every column ckptsim writes is one of the release's, the ones the
// release removed are absent, and the ones the model counts are present. The
// lists below are the tables of monitoring.sgml on REL_16_STABLE,
// REL_17_STABLE and REL_18_STABLE (as published at
// postgresql.org/docs/16|17|18/monitoring-stats.html); 18's changes checked
// against release-18.sgml's Monitoring items (f92c854cf: read_bytes,
// write_bytes, extend_bytes, op_bytes removed; a051e71e2: WAL rows;
// 2421e9a51: wal_write, wal_sync, wal_write_time, wal_sync_time removed from
// pg_stat_wal; 559efce1d: num_done; 17cc5f666: slru_written).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/folder/run_files.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

using Columns = std::set<std::string>;

// pg_stat_bgwriter, 9.2 to 16 (monitoring.sgml, REL_16_STABLE).
const Columns kBgwriter16{"checkpoints_timed",    "checkpoints_req",    "checkpoint_write_time",
                          "checkpoint_sync_time", "buffers_checkpoint", "buffers_clean",
                          "maxwritten_clean",     "buffers_backend",    "buffers_backend_fsync",
                          "buffers_alloc",        "stats_reset"};
// pg_stat_bgwriter from 17: the checkpointer's columns moved out, buffers_backend* removed.
const Columns kBgwriter17{"buffers_clean", "maxwritten_clean", "buffers_alloc", "stats_reset"};
// pg_stat_checkpointer, REL_17_STABLE.
const Columns kCheckpointer17{"num_timed",         "num_requested",      "restartpoints_timed",
                              "restartpoints_req", "restartpoints_done", "write_time",
                              "sync_time",         "buffers_written",    "stats_reset"};
// pg_stat_checkpointer, REL_18_STABLE: num_done and slru_written added.
const Columns kCheckpointer18{"num_timed",         "num_requested",      "num_done",   "restartpoints_timed",
                              "restartpoints_req", "restartpoints_done", "write_time", "sync_time",
                              "buffers_written",   "slru_written",       "stats_reset"};
// pg_stat_wal, REL_14_STABLE to REL_17_STABLE.
const Columns kWal14{"wal_records", "wal_fpi",        "wal_bytes",     "wal_buffers_full", "wal_write",
                     "wal_sync",    "wal_write_time", "wal_sync_time", "stats_reset"};
// pg_stat_wal, REL_18_STABLE.
const Columns kWal18{"wal_records", "wal_fpi", "wal_bytes", "wal_buffers_full", "stats_reset"};
// pg_stat_io, REL_16_STABLE and REL_17_STABLE.
const Columns kIo16{"backend_type", "object",     "context",        "reads",   "read_time",   "writes",
                    "write_time",   "writebacks", "writeback_time", "extends", "extend_time", "op_bytes",
                    "hits",         "evictions",  "reuses",         "fsyncs",  "fsync_time",  "stats_reset"};
// pg_stat_io, REL_18_STABLE.
const Columns kIo18{"backend_type",   "object",  "context",      "reads",       "read_bytes",
                    "read_time",      "writes",  "write_bytes",  "write_time",  "writebacks",
                    "writeback_time", "extends", "extend_bytes", "extend_time", "hits",
                    "evictions",      "reuses",  "fsyncs",       "fsync_time",  "stats_reset"};

struct Release {
  const char* version;
  Columns bgwriter;
  const Columns* checkpointer;  // null: no such view
  Columns wal;
  const Columns* io;
};

Columns keys(const nlohmann::json& object) {
  Columns out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

// Every key of `written` is a documented column.
void check_documented(const char* view, const Columns& written, const Columns& documented) {
  for (const std::string& column : written) CHECK_MESSAGE(documented.count(column) == 1, view << "." << column);
}

const char* kScenario = R"({
  "hardware": {"cpus": 4, "ram": "8GB", "device": "nvme"},
  "postgres": {"shared_buffers": "16MB", "max_wal_size": "32MB"},
  "pgbench": {"builtin": "tpcb-like", "scale": 10, "clients": 2, "threads": 1, "duration": "8s"},
  "seed": 7
})";

}  // namespace

TEST_CASE("summary.json's views carry only the columns each release documents, and lose the ones it removed") {
  const Release releases[] = {
      {"15", kBgwriter16, nullptr, kWal14, nullptr},
      {"16", kBgwriter16, nullptr, kWal14, &kIo16},
      {"17", kBgwriter17, &kCheckpointer17, kWal14, &kIo16},
      {"18", kBgwriter17, &kCheckpointer18, kWal18, &kIo18},
  };
  TempDir tmp("cli-view-columns");
  write_text(tmp / "s.json", kScenario);
  for (const Release& r : releases) {
    CAPTURE(r.version);
    const auto out = tmp / (std::string("v") + r.version);
    REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + out.string() +
                            " --set postgres.version=" + r.version,
                        tmp)
                .exit_code == 0);
    const auto summary = nlohmann::json::parse(slurp(out / ckptsim::cli::run_files::kSummaryJson));
    const Columns bgwriter = keys(summary.at("pg_stat_bgwriter"));
    check_documented("pg_stat_bgwriter", bgwriter, r.bgwriter);
    CHECK(bgwriter.count("buffers_clean") == 1);
    CHECK(summary.contains("pg_stat_checkpointer") == (r.checkpointer != nullptr));
    if (r.checkpointer != nullptr) {
      const Columns checkpointer = keys(summary.at("pg_stat_checkpointer"));
      check_documented("pg_stat_checkpointer", checkpointer, *r.checkpointer);
      for (const char* modelled : {"num_timed", "num_requested", "write_time", "sync_time", "buffers_written"})
        CHECK_MESSAGE(checkpointer.count(modelled) == 1, modelled);
    }
    const Columns wal = keys(summary.at("pg_stat_wal"));
    check_documented("pg_stat_wal", wal, r.wal);
    CHECK(wal.count("wal_fpi") == 1);
    CHECK(summary.contains("pg_stat_io") == (r.io != nullptr));
    if (r.io != nullptr) {
      for (const auto& row : summary.at("pg_stat_io")) {
        check_documented("pg_stat_io", keys(row), *r.io);
        CHECK(keys(row).count("writes") == 1);
      }
    }
  }
}

TEST_CASE("18's views: num_done, slru_written, pg_stat_io in bytes with WAL rows, and the SLRU words of the log line") {
  TempDir tmp("cli-views-18");
  write_text(tmp / "s.json", kScenario);
  const auto out = tmp / "v18";
  REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + out.string() +
                          " --set postgres.version=18 --set pgbench.duration=20s",
                      tmp)
              .exit_code == 0);
  const auto summary = nlohmann::json::parse(slurp(out / ckptsim::cli::run_files::kSummaryJson));
  const auto& checkpointer = summary.at("pg_stat_checkpointer");
  const auto done = checkpointer.at("num_done").get<std::int64_t>();
  CHECK(done >= 1);  // 32MB of WAL fills several times in 20 s
  CHECK(done <=
        checkpointer.at("num_timed").get<std::int64_t>() + checkpointer.at("num_requested").get<std::int64_t>());
  CHECK(done == static_cast<std::int64_t>(summary.at("checkpoints").size()));
  // Each checkpoint writes at least the pg_xact page its transactions' status went to.
  CHECK(checkpointer.at("slru_written").get<std::int64_t>() >= done);
  const auto& io = summary.at("pg_stat_io");
  const auto& backend = io.at(0);
  REQUIRE(backend.at("object") == "relation");
  CHECK(backend.at("read_bytes").get<std::int64_t>() == 8192 * backend.at("reads").get<std::int64_t>());
  CHECK(backend.at("write_bytes").get<std::int64_t>() == 8192 * backend.at("writes").get<std::int64_t>());
  CHECK(backend.at("extend_bytes").get<std::int64_t>() == 8192 * backend.at("extends").get<std::int64_t>());
  CHECK(io.at(1).at("read_bytes").is_null());  // the checkpointer reads nothing: NULL, as its reads
  // A client backend's WAL writes: the commits' XLogFlush, one fdatasync each write here.
  bool wal_row = false;
  for (const auto& row : io) {
    if (row.at("object") != "wal" || row.at("backend_type") != "client backend" || row.at("context") != "normal")
      continue;
    wal_row = true;
    CHECK(row.at("writes").get<std::int64_t>() > 0);
    CHECK(row.at("write_bytes").get<std::int64_t>() % 8192 == 0);  // whole WAL pages
    CHECK(row.at("fsyncs").get<std::int64_t>() > 0);
  }
  CHECK(wal_row);
  const std::string log = slurp(out / ckptsim::cli::run_files::kPostgresLog);
  CHECK(log.find("checkpoint complete: wrote ") != std::string::npos);
  CHECK(log.find(" SLRU buffers; ") != std::string::npos);
}

TEST_CASE("select-only after a tpcb-like warmup: 18's checksums log hint-bit images, as wal_log_hints does on 17") {
  // The warmup's updates leave rows unhinted and its checkpoints (32MB of WAL) move the redo
  // point past their pages; the SELECTs then set hint bits on pages clean since.
  TempDir tmp("cli-hint-images");
  write_text(tmp / "s.json", kScenario);
  const auto wal_fpi = [&](const std::string& name, const std::string& sets) {
    const auto out = tmp / name;
    REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + out.string() +
                            " --set warmup.builtin=tpcb-like --set warmup.clients=2 --set warmup.duration=8s"
                            " --set pgbench.builtin=select-only --set pgbench.duration=4s " +
                            sets,
                        tmp)
                .exit_code == 0);
    const auto summary = nlohmann::json::parse(slurp(out / ckptsim::cli::run_files::kSummaryJson));
    return summary.at("pg_stat_wal").at("wal_fpi").get<std::int64_t>();
  };
  const std::int64_t v17 = wal_fpi("v17", "--set postgres.version=17");
  const std::int64_t v17_hints = wal_fpi("v17h", "--set postgres.version=17 --set postgres.wal_log_hints=on");
  const std::int64_t v18 = wal_fpi("v18", "--set postgres.version=18");
  const std::int64_t v18_off = wal_fpi("v18off", "--set postgres.version=18 --set postgres.data_checksums=off");
  // Without logged hints the run's few images are the warmup's stragglers, the same on both.
  CHECK(v18_off == v17);
  CHECK(v18 > v17 + 100);
  CHECK(v17_hints == v18);  // the same images: XLogHintBitIsNeeded is either setting
}
