// The settings `ckptsim check` shows (scenarios/applicable.h): only those the
// scenario's device and release have, enum GUCs in PostgreSQL's words.
#include <doctest/doctest.h>

#include "scenarios/applicable.h"

using namespace ckptsim;
using scenarios::json;

namespace {

json shown(const json& doc) { return scenarios::applicable_settings(scenarios::load_plan(doc).points.at(0).scenario); }

}  // namespace

TEST_CASE("check shows an HDD's mechanics and no flash keys, an SSD's flash and no HDD keys") {
  const json hdd = shown({{"hardware", {{"device", "hdd-7200-sata"}}}})["devices"]["data"];
  CHECK(hdd.contains("rpm"));
  CHECK(hdd.contains("write_cache_extents"));
  CHECK_FALSE(hdd.contains("flash_page"));
  CHECK_FALSE(hdd.contains("program_time"));
  CHECK_FALSE(hdd.contains("controller_flush_interval"));  // no controller cache on this preset
  const json ssd = shown({{"hardware", {{"device", "ssd-sata"}}}})["devices"]["data"];
  CHECK(ssd.contains("flash_page"));
  CHECK_FALSE(ssd.contains("rpm"));
  CHECK_FALSE(ssd.contains("seek_average"));
  const json bbwc = shown({{"hardware", {{"device", "raid1-hdd-7200-bbwc"}}}})["devices"]["data"];
  CHECK(bbwc.contains("controller_flush_interval"));
}

TEST_CASE("check shows the WAL-size settings of the release: checkpoint_segments until 9.4, max_wal_size after") {
  const json pg94 = shown({{"postgres", {{"version", "9.4"}}}})["postgres"];
  CHECK(pg94.contains("checkpoint_segments"));
  CHECK_FALSE(pg94.contains("max_wal_size"));
  CHECK_FALSE(pg94.contains("checkpoint_flush_after"));  // 9.6+
  const json pg96 = shown({{"postgres", {{"version", "9.6"}}}})["postgres"];
  CHECK_FALSE(pg96.contains("checkpoint_segments"));
  CHECK(pg96["max_wal_size"] == "1GB");
  CHECK(pg96["checkpoint_flush_after"] == "256kB");
  CHECK_FALSE(pg96.contains("track_wal_io_timing"));  // 14+
  CHECK(shown({{"postgres", {{"version", "15"}}}})["postgres"].contains("track_wal_io_timing"));
}

TEST_CASE("check writes synchronous_commit as PostgreSQL does: on / off, not true / false") {
  CHECK(shown({{"postgres", {{"version", "15"}}}})["postgres"]["synchronous_commit"] == "on");
  CHECK(shown({{"postgres", {{"synchronous_commit", "off"}}}})["postgres"]["synchronous_commit"] == "off");
  CHECK(shown({{"postgres", {{"synchronous_commit", "local"}}}})["postgres"]["synchronous_commit"] == "on");
}
