// tests/scenarios/test_limits.cpp
//
// Limits that are the kernel's or the hardware's: the database and its WAL
// on their devices, an HDD's seek figures in order, nr_requests and
// vm.dirty_bytes as the kernel accepts them; from the file, --set and a grid.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;

TEST_CASE("the database at pgbench.scale and the WAL must fit on the data device") {
  // Scale 1000: 1000 x (16394 heap + 2745 index pages per 10) blocks of 8kB, about 15GB.
  CHECK(
      errors_of({{"device", {{"capacity", "10GB"}}}, {"pgbench", {{"scale", 1000}}}}) ==
      std::vector<std::string>{"/device/capacity: 10GB cannot hold the database at scale 1000 (14.6GB of "
                               "pgbench tables and indexes) and 1GB of WAL (max_wal_size); at least 15.6GB is needed"});
  // The preset's capacity: the scale is blamed, from wherever it was set.
  LoadOptions options;
  options.sets = {"pgbench.scale=100000"};
  const auto too_big = errors_of({{"hardware", {{"device", "hdd-15k-sas"}}}}, options);
  REQUIRE(too_big.size() == 1);
  CHECK(too_big[0].rfind("--set pgbench.scale: 100000 needs 1.", 0) == 0);
  CHECK(too_big[0].find("more than the data device hdd-15k-sas holds (capacity 300GB)") != std::string::npos);
  // A grid point that does not fit is named by its grid entry.
  const auto grid = errors_of({{"device", {{"capacity", "20GB"}}}, {"grid", {{"pgbench.scale", {100, 2000}}}}});
  REQUIRE(grid.size() == 1);
  CHECK(grid[0].rfind("/device/capacity: 20GB cannot hold the database at scale 2000", 0) == 0);
  // Before 9.5 the WAL room follows checkpoint_segments: (2 + 0.5) x 3 + 1 = 8 segments, 128MB.
  CHECK(
      errors_of({{"postgres", {{"version", "9.4"}}}, {"device", {{"capacity", "200MB"}}}, {"pgbench", {{"scale", 5}}}})
          .at(0)
          .find("and 128MB of WAL (checkpoint_segments)") != std::string::npos);
  CHECK(errors_of({{"device", {{"capacity", "20GB"}}}, {"pgbench", {{"scale", 1000}}}}).empty());
  // The tables fit and the WAL the user wrote does not: the WAL setting is blamed, where it was written.
  CHECK(errors_of({{"device", {{"capacity", "20GB"}}},
                   {"postgres", {{"conf", "max_wal_size = 30GB"}}},
                   {"pgbench", {{"scale", 10}}}}) ==
        std::vector<std::string>{"/postgres/conf: line 1: 30GB of WAL (max_wal_size) does not fit beside the database "
                                 "at scale 10 (153160kB) on the data device raid1-hdd-7200 (capacity 20GB)"});
}

TEST_CASE("an HDD's seek figures are ordered: single <= average <= full") {
  CHECK(errors_of({{"device", {{"seek_single", "30ms"}}}}) ==
        std::vector<std::string>{"/device/seek_single: 30ms is above seek_full (17ms, "
                                 "presets/device/raid1-hdd-7200.json: /device/seek_full): a one-cylinder seek cannot "
                                 "take longer than a full stroke"});
  LoadOptions options;
  options.sets = {"device.seek_average=20ms"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{
            "--set device.seek_average: 20ms is out of range (seek_single 1100us .. seek_full 17ms)"});
  CHECK(errors_of({{"grid", {{"device.seek_full", {"17ms", "0.5ms"}}}}}) ==
        std::vector<std::string>{"/grid/device.seek_full/1: 500us is below seek_single (1100us, "
                                 "presets/device/raid1-hdd-7200.json: /device/seek_single): a full stroke cannot take "
                                 "less time than a one-cylinder seek"});
}

TEST_CASE("nr_requests is a queue size the kernel keeps: 4 or more, or left out for its default") {
  const std::string why =
      " is below BLKDEV_MIN_RQ (the kernel would raise it to 4): give 4..100000, or leave "
      "nr_requests out for the kernel's default (legacy 128; blk-mq 2 x min(queue_depth, 128))";
  CHECK(errors_of({{"os", {{"nr_requests", 0}}}}) == std::vector<std::string>{"/os/nr_requests: 0" + why});
  LoadOptions options;
  options.sets = {"os.nr_requests=2"};
  CHECK(errors_of(json::object(), options) == std::vector<std::string>{"--set os.nr_requests: 2" + why});
  CHECK(errors_of({{"grid", {{"os.nr_requests", {64, 0}}}}}) ==
        std::vector<std::string>{"/grid/os.nr_requests/1: 0" + why});
  // Left out, the modern kernel's default stays (0 inside: the block queue works it out).
  CHECK(load(json::object()).points.at(0).scenario.os.nr_requests == 0);
  CHECK(load({{"os", {{"nr_requests", 4}}}}).points.at(0).scenario.os.nr_requests == 4);
}

TEST_CASE("vm.dirty_bytes is 0 or at least two pages, as dirty_bytes_handler accepts") {
  const std::string why =
      " is below the kernel's minimum, two pages (8192 bytes, dirty_bytes_min): give 0 "
      "(vm.dirty_ratio applies) or at least 8kB";
  CHECK(errors_of({{"os", {{"vm.dirty_bytes", 1}}}}) == std::vector<std::string>{"/os/vm.dirty_bytes: 1" + why});
  LoadOptions options;
  options.sets = {"os.vm.dirty_bytes=8191"};
  CHECK(errors_of(json::object(), options) == std::vector<std::string>{"--set os.vm.dirty_bytes: 8191" + why});
  CHECK(errors_of({{"grid", {{"os.vm.dirty_bytes", {0, "4kB"}}}}}) ==
        std::vector<std::string>{"/grid/os.vm.dirty_bytes/1: 4096" + why});
  CHECK(errors_of({{"os", {{"vm.dirty_bytes", "8kB"}}}}).empty());
  // dirty_background_bytes' minimum is one byte (extra1 = &one_ul).
  CHECK(errors_of({{"os", {{"vm.dirty_background_bytes", 1}}}}).empty());
}
