// tests/scenarios/test_version_gates.cpp
//
// Settings checked per release, as each release's guc.c has them, and the
// WAL settings the model covers or refuses: fsync, wal_sync_method,
// wal_compression. Nothing a scenario writes is ignored.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

namespace {
Scenario only(const json& doc, const LoadOptions& options = {}) { return load(doc, options).points.at(0).scenario; }
}  // namespace

TEST_CASE("the *_flush_after settings came with 9.6: refused before, from the file, --set or a grid") {
  CHECK(errors_of({{"postgres", {{"version", "9.5"}, {"checkpoint_flush_after", "256kB"}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_flush_after: PostgreSQL 9.5 has no checkpoint_flush_after "
                                 "(it came with 9.6)"});
  LoadOptions options;
  options.sets = {"postgres.version=9.4", "postgres.bgwriter_flush_after=0"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{"--set postgres.bgwriter_flush_after: PostgreSQL 9.4 has no bgwriter_flush_after "
                                 "(it came with 9.6)"});
  CHECK(
      errors_of({{"postgres", {{"backend_flush_after", "64kB"}}}, {"grid", {{"postgres.version", {"9.6", "9.5"}}}}}) ==
      std::vector<std::string>{"/postgres/backend_flush_after: PostgreSQL 9.5 has no backend_flush_after (it came "
                               "with 9.6)"});
  // The version preset's own 0 is the release's default, not a setting the scenario wrote.
  CHECK(errors_of({{"postgres", {{"version", "9.5"}}}}).empty());
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"checkpoint_flush_after", "256kB"}}}}).empty());
}

TEST_CASE("bgwriter_lru_maxpages above 1000 and checkpoint_timeout above 1h are refused where guc.c refused them") {
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"bgwriter_lru_maxpages", 5000}}}}) ==
        std::vector<std::string>{"/postgres/bgwriter_lru_maxpages: 5000 is out of range for PostgreSQL 9.6 (0..1000; "
                                 "10 raised the limit to 1073741823)"});
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"bgwriter_lru_maxpages", 1000}}}}).empty());
  CHECK(errors_of({{"postgres", {{"version", "10"}, {"bgwriter_lru_maxpages", 5000}}}}).empty());
  CHECK(errors_of({{"postgres", {{"version", "9.5"}, {"checkpoint_timeout", "2h"}}}}) ==
        std::vector<std::string>{"/postgres/checkpoint_timeout: 2h is out of range for PostgreSQL 9.5 (30s..1h; 9.6 "
                                 "raised the limit to 1d)"});
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"checkpoint_timeout", "2h"}}}}).empty());
}

TEST_CASE("wal_compression: a boolean from 9.5, pglz / lz4 / zstd from 15") {
  CHECK(only({{"postgres", {{"version", "15"}, {"wal_compression", "lz4"}}}}).postgres.wal_compression ==
        postgres::WalCompression::Lz4);
  CHECK(only({{"postgres", {{"version", "15"}, {"wal_compression", "lz4"}}}}).resolved["postgres"]["wal_compression"] ==
        "lz4");
  CHECK(only({{"postgres", {{"conf", "wal_compression = zstd"}}}}).postgres.wal_compression ==
        postgres::WalCompression::Zstd);
  CHECK(only({{"postgres", {{"version", "9.5"}, {"wal_compression", "on"}}}}).postgres.wal_compression ==
        postgres::WalCompression::Pglz);
  CHECK(errors_of({{"postgres", {{"version", "14"}, {"wal_compression", "lz4"}}}}) ==
        std::vector<std::string>{"/postgres/wal_compression: \"lz4\" is not a boolean: PostgreSQL 14's wal_compression "
                                 "is on or off (pglz, lz4 and zstd came with 15)"});
  CHECK(
      errors_of({{"postgres", {{"version", "9.4"}, {"wal_compression", true}}}}) ==
      std::vector<std::string>{"/postgres/wal_compression: PostgreSQL 9.4 has no wal_compression (it came with 9.5)"});
  CHECK(
      errors_of({{"postgres", {{"wal_compression", "lzma"}}}}) ==
      std::vector<std::string>{"/postgres/wal_compression: \"lzma\" is not a boolean or one of off, pglz, lz4, zstd"});
}

TEST_CASE("fsync = off and wal_sync_method are modelled settings, pasted or as keys; O_DSYNC methods are refused") {
  const Plan pasted = load({{"postgres", {{"conf", "fsync = off\nwal_sync_method = fsync\n"}}}});
  CHECK(pasted.warnings.empty());  // not "does not model fsync; ignored" any more
  CHECK(pasted.points.at(0).scenario.postgres.fsync == false);
  CHECK(pasted.points.at(0).scenario.postgres.wal_sync_method == postgres::WalSyncMethod::Fsync);
  CHECK(only(json::object()).postgres.fsync == true);
  CHECK(only(json::object()).postgres.wal_sync_method == postgres::WalSyncMethod::Fdatasync);
  CHECK(errors_of({{"postgres", {{"wal_sync_method", "open_sync"}}}}) ==
        std::vector<std::string>{"/postgres/wal_sync_method: \"open_sync\" is not modelled: WAL written with O_SYNC "
                                 "syncs inside each write(), which ckptsim's file system does not do; use fdatasync "
                                 "(the Linux default) or fsync"});
  LoadOptions options;
  options.sets = {"postgres.conf=wal_sync_method = open_datasync"};
  CHECK(errors_of(json::object(), options)
            .at(0)
            .rfind("--set postgres.conf: line 1: \"open_datasync\" is not modelled: WAL written with O_DSYNC", 0) == 0);
  CHECK(errors_of({{"postgres", {{"wal_sync_method", "fsync_writethrough"}}}}) ==
        std::vector<std::string>{"/postgres/wal_sync_method: \"fsync_writethrough\" is not available on Linux "
                                 "(PostgreSQL refuses it there); use fdatasync or fsync"});
}

TEST_CASE("synchronous_commit's levels are checked against the release that has them") {
  CHECK(errors_of({{"postgres", {{"version", "9.5"}, {"synchronous_commit", "remote_apply"}}}}) ==
        std::vector<std::string>{"/postgres/synchronous_commit: \"remote_apply\" is not a value of PostgreSQL 9.5's "
                                 "synchronous_commit (it came with 9.6)"});
  CHECK(errors_of({{"postgres", {{"conf", "synchronous_commit = local"}, {"version", "9.0"}}}}) ==
        std::vector<std::string>{"/postgres/conf: line 1: \"local\" is not a value of PostgreSQL 9.0's "
                                 "synchronous_commit (it came with 9.1)"});
  CHECK(errors_of({{"postgres", {{"version", "9.2"}, {"synchronous_commit", "remote_write"}}}}).empty());
  CHECK(errors_of({{"postgres", {{"version", "9.0"}, {"synchronous_commit", "off"}}}}).empty());
}

TEST_CASE("a fraction for an integer setting is refused before 12 (parse_int read it with strtol), taken from 12") {
  const std::string refusal =
      " is not a whole number: PostgreSQL 9.6 refuses a fraction for an integer setting (12 accepts one); write a "
      "whole number of a smaller unit, e.g. \"1536MB\" for \"1.5GB\"";
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"shared_buffers", "1.5GB"}}}}) ==
        std::vector<std::string>{"/postgres/shared_buffers: \"1.5GB\"" + refusal});
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"conf", "checkpoint_timeout = 1e3"}}}}) ==
        std::vector<std::string>{"/postgres/conf: line 1: \"1e3\"" + refusal});
  // A real takes a fraction in every release; a whole number of a unit is an integer.
  CHECK(errors_of({{"postgres", {{"version", "9.6"}, {"checkpoint_completion_target", 0.5}, {"max_wal_size", "2GB"}}}})
            .empty());
  CHECK(only({{"postgres", {{"version", "12"}, {"shared_buffers", "1.5GB"}}}}).postgres.shared_buffers ==
        1536 * sim::kMiB);
}

TEST_CASE("data_checksums came with 9.3's initdb, wal_log_hints with 9.4, io_method and io_workers with 18") {
  CHECK(errors_of({{"postgres", {{"version", "9.2"}, {"data_checksums", true}}}}) ==
        std::vector<std::string>{"/postgres/data_checksums: PostgreSQL 9.2 has no data_checksums "
                                 "(it came with 9.3's initdb)"});
  CHECK(errors_of({{"postgres", {{"version", "9.3"}, {"wal_log_hints", true}}}}) ==
        std::vector<std::string>{"/postgres/wal_log_hints: PostgreSQL 9.3 has no wal_log_hints (it came with 9.4)"});
  CHECK(errors_of({{"postgres", {{"version", "17"}, {"io_method", "sync"}, {"io_workers", 4}}}}) ==
        std::vector<std::string>{"/postgres/io_method: PostgreSQL 17 has no io_method (it came with 18)",
                                 "/postgres/io_workers: PostgreSQL 17 has no io_workers (it came with 18)"});
  CHECK(errors_of({{"postgres", {{"version", "18"}, {"io_method", "posix_aio"}}}}).size() == 1);
  // 18's preset: initdb's checksums on, io_method worker; the resolved settings of an older
  // release carry no io_* keys.
  const Scenario v18 = only({{"postgres", {{"version", "18"}}}});
  CHECK(v18.postgres.data_checksums);
  CHECK(v18.postgres.io_method == postgres::IoMethod::Worker);
  CHECK(v18.postgres.io_workers == 3);
  const Scenario v17 = only({{"postgres", {{"version", "17"}, {"wal_log_hints", true}}}});
  CHECK_FALSE(v17.postgres.data_checksums);
  CHECK(v17.postgres.wal_log_hints);
  CHECK_FALSE(v17.resolved.at("postgres").contains("io_method"));
  CHECK(v18.resolved.at("postgres").at("io_method") == "worker");
  CHECK_FALSE(only({{"postgres", {{"version", "9.2"}}}}).resolved.at("postgres").contains("data_checksums"));
}

TEST_CASE("a pasted postgresql.conf cannot turn data checksums on: initdb chose them") {
  LoadOptions options;
  options.sets = {"postgres.version=17", "postgres.conf=data_checksums = on"};
  const Scenario s = only(json::object(), options);
  CHECK_FALSE(s.postgres.data_checksums);
}
