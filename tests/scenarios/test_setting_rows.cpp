// tests/scenarios/test_setting_rows.cpp
//
// One row per PostgreSQL setting (settings_postgres.cpp): every row says the
// release it came with and its context, or why it is ckptsim's own key; the
// settings a reload applies are exactly those ReloadableConfig holds; the
// version refusals are read from the rows (track_wal_io_timing too).
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "models/postgres/postgres_config.h"
#include "scenario_files.h"
#include "scenarios/settings.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;

TEST_CASE("every postgres row gives its release and context, or says why it is model-only") {
  postgres_rows().each_row([](const std::string& name, const SettingFacts& facts) {
    CAPTURE(name);
    if (!facts.model_only.empty()) return;
    CHECK(facts.since >= 90000);
    CHECK(facts.context != Context::Unset);
    if (facts.until != 0) CHECK(facts.until > facts.since);
  });
  CHECK(postgres_rows().facts("checkpoint_sorting")->model_only.size() > 0);
  CHECK(postgres_rows().facts("version")->model_only.size() > 0);
}

TEST_CASE("the reloadable rows are today's 23 and 18's io_workers, whose context is sighup") {
  std::vector<std::string> reloadable;
  postgres_rows().each_row([&](const std::string& name, const SettingFacts& facts) {
    if (facts.reloadable()) reloadable.push_back(name);
  });
  CHECK(reloadable == std::vector<std::string>{
                          "checkpoint_timeout",     "checkpoint_completion_target", "checkpoint_segments",
                          "max_wal_size",           "min_wal_size",                 "checkpoint_warning",
                          "checkpoint_sorting",     "checkpoint_flush_after",       "bgwriter_delay",
                          "bgwriter_lru_maxpages",  "bgwriter_lru_multiplier",      "bgwriter_flush_after",
                          "backend_flush_after",    "full_page_writes",             "wal_compression",
                          "wal_sync_method",        "synchronous_commit",           "wal_writer_delay",
                          "wal_writer_flush_after", "commit_delay",                 "commit_siblings",
                          "log_checkpoints",        "track_wal_io_timing",          "io_workers"});
  // fsync is sighup in PostgreSQL, but this model reads it at start only.
  CHECK(postgres_rows().facts("fsync")->context == Context::Sighup);
  CHECK_FALSE(postgres_rows().facts("fsync")->reloadable());
}

TEST_CASE("a reload takes exactly the reloadable rows' settings") {
  // One value per row, none of them the default.
  const std::map<std::string, json> changed{
      {"version", "9.6"},
      {"shared_buffers", "1GB"},
      {"max_connections", 200},
      {"checkpoint_timeout", "7min"},
      {"checkpoint_completion_target", 0.3},
      {"checkpoint_segments", 9},
      {"max_wal_size", "2GB"},
      {"min_wal_size", "100MB"},
      {"checkpoint_warning", "10s"},
      {"checkpoint_sorting", false},
      {"checkpoint_flush_after", "128kB"},
      {"bgwriter_delay", "100ms"},
      {"bgwriter_lru_maxpages", 7},
      {"bgwriter_lru_multiplier", 3.0},
      {"bgwriter_flush_after", "64kB"},
      {"backend_flush_after", "32kB"},
      {"wal_buffers", "4MB"},
      {"full_page_writes", false},
      {"wal_compression", "lz4"},
      {"fsync", false},
      {"wal_sync_method", "fsync"},
      {"synchronous_commit", false},
      {"wal_writer_delay", "50ms"},
      {"wal_writer_flush_after", "2MB"},
      {"commit_delay", "10us"},
      {"commit_siblings", 2},
      {"log_checkpoints", false},
      {"track_wal_io_timing", true},
      {"data_checksums", true},
      {"wal_log_hints", true},
      {"io_method", "sync"},
      {"io_workers", 5}};
  const Schema<postgres::PostgresConfig>& rows = postgres_rows();
  postgres::PostgresConfig reread;
  Errors errors;
  json section = json::object();
  for (const auto& [name, value] : changed) section[name] = value;
  rows.parse(section, Origins("/postgres"), reread, errors);
  REQUIRE(errors.empty());
  const postgres::PostgresConfig before;
  postgres::PostgresConfig running;
  postgres::apply_reload(running, reread);
  const json was = rows.normalise(before), now = rows.normalise(running), asked = rows.normalise(reread);
  rows.each_row([&](const std::string& name, const SettingFacts& facts) {
    CAPTURE(name);
    REQUIRE(changed.count(name) == 1);  // a new row needs its value above
    REQUIRE(asked.at(name) != was.at(name));
    CHECK(now.at(name) == (facts.reloadable() ? asked.at(name) : was.at(name)));
  });
}

TEST_CASE("track_wal_io_timing came with 14: refused before, as the other releases' settings") {
  CHECK(errors_of({{"postgres", {{"version", "13"}, {"track_wal_io_timing", true}}}}) ==
        std::vector<std::string>{
            "/postgres/track_wal_io_timing: PostgreSQL 13 has no track_wal_io_timing (it came with 14)"});
  CHECK(errors_of({{"postgres", {{"version", "14"}, {"track_wal_io_timing", true}}}}).empty());
}

TEST_CASE("release_name spells a release as its notes do") {
  CHECK(release_name(90600) == "9.6");
  CHECK(release_name(90300) == "9.3");
  CHECK(release_name(140000) == "14");
}
