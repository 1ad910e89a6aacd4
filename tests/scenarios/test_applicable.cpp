// The settings `ckptsim check` shows (scenarios/applicable.h): only those the
// scenario's device and release have, enum GUCs in PostgreSQL's words.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "scenarios/applicable.h"
#include "scenarios/settings.h"

using namespace ckptsim;
using scenarios::json;

namespace {

json shown(const json& doc) { return scenarios::applicable_settings(scenarios::load_plan(doc).points.at(0).scenario); }

std::set<std::string> keys_of(const json& section) {
  std::set<std::string> keys;
  for (const auto& [key, value] : section.items()) keys.insert(key);
  return keys;
}

// What a device shows by the parts it has: every device row (settings_device.cpp)
// and its name and description, less the rows of the parts it lacks.
std::set<std::string> device_keys(disk::Kind kind, bool controller, bool volume) {
  using scenarios::part_keys;
  std::set<std::string> keys{"name", "description"};
  for (const std::string& key : scenarios::make_schemas().device.names()) keys.insert(key);
  auto drop = [&keys](const std::vector<std::string>& part) {
    for (const std::string& key : part) keys.erase(key);
  };
  if (kind == disk::Kind::Hdd) {
    drop(part_keys(scenarios::describe_ssd));
    keys.insert("write_overhead");  // an SSD's row that check has always shown on an HDD too
  } else {
    drop(part_keys(scenarios::describe_hdd));
  }
  if (!controller) {
    drop(part_keys(scenarios::describe_controller, scenarios::kControllerPrefix));
    keys.insert("controller_cache");  // its 0 says there is no controller
  }
  if (!volume) drop(part_keys(scenarios::describe_volume, scenarios::kVolumePrefix));
  return keys;
}

json device_shown(const std::string& preset) { return shown({{"hardware", {{"device", preset}}}})["devices"]["data"]; }

}  // namespace

TEST_CASE("check shows a device the rows of the parts it has: its kind's, a controller's, a volume's") {
  using disk::Kind;
  const std::set<std::string> hdd = keys_of(device_shown("hdd-7200-sata"));
  CHECK(hdd == device_keys(Kind::Hdd, false, false));
  CHECK(hdd.size() == 2 + 7 + 19 + 1);  // name, description; common rows; HddConfig's; write_overhead
  CHECK(hdd.contains("rpm"));
  CHECK_FALSE(hdd.contains("channels"));
  CHECK_FALSE(hdd.contains("controller_overhead"));
  CHECK_FALSE(hdd.contains("volume_iops"));

  const std::set<std::string> bbwc = keys_of(device_shown("raid1-hdd-7200-bbwc"));
  CHECK(bbwc == device_keys(Kind::Hdd, true, false));
  CHECK(bbwc.size() == hdd.size() + 3);  // the controller's overhead, queue depth, flush interval
  CHECK(bbwc.contains("controller_queue_depth"));

  const std::set<std::string> ssd = keys_of(device_shown("ssd-sata"));
  CHECK(ssd == device_keys(Kind::Ssd, false, false));
  CHECK(ssd.size() == 2 + 7 + 17);  // name, description; common rows; SsdConfig's
  CHECK(ssd.contains("channels"));
  CHECK(ssd.contains("write_overhead"));
  CHECK_FALSE(ssd.contains("rpm"));
  CHECK_FALSE(ssd.contains("volume_latency"));

  const std::set<std::string> gp3 = keys_of(device_shown("ebs-gp3"));
  CHECK(gp3 == device_keys(Kind::Ssd, false, true));
  CHECK(gp3.size() == ssd.size() + 10);  // IoLimitsConfig's nine and the round trip
  CHECK(gp3.contains("volume_iops"));
  CHECK(gp3.contains("volume_latency"));
  CHECK_FALSE(gp3.contains("rpm"));
}

TEST_CASE("the instance's limits take the volume's rows under instance_, shown only when it has one") {
  std::vector<std::string> instance;
  for (const std::string& key : scenarios::part_keys(scenarios::describe_io_limits)) {
    instance.push_back(scenarios::kInstancePrefix + key);
  }
  CHECK(instance.front() == "instance_iops");
  CHECK(instance.back() == "instance_burst_balance");
  const json limited = shown({{"hardware", {{"instance_iops", 6000}}}})["hardware"];
  for (const std::string& key : instance) CHECK(limited.contains(key));
  CHECK(limited["instance_iops"] == 6000);
  const json plain = shown(json::object())["hardware"];
  for (const std::string& key : instance) CHECK_FALSE(plain.contains(key));
}

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
