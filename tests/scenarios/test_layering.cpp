// tests/scenarios/test_layering.cpp
//
// Which value wins: built-in defaults < component preset < preset-list
// files < scenario file < --set < grid point; and where an error says a bad
// value came from at each layer.
#include <doctest/doctest.h>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::load;
using ckptsim::scenarios::testing::ScratchDir;
using ckptsim::scenarios::testing::use_source_presets;

namespace {
const Scenario& only(const Plan& plan) {
  REQUIRE(plan.points.size() == 1);
  return plan.points[0].scenario;
}
}  // namespace

TEST_CASE("a version preset gives that release's defaults") {
  const Plan v96 = load({{"postgres", {{"version", "9.6"}}}});
  CHECK(only(v96).postgres.checkpoint_completion_target == 0.5);
  CHECK(only(v96).postgres.log_checkpoints == false);
  const Plan v90 = load({{"postgres", {{"version", "9.0"}}}});
  CHECK(only(v90).postgres.checkpoint_sorting == false);
  CHECK(only(v90).postgres.checkpoint_flush_after == 0);
  CHECK(only(v90).postgres.wal_buffers == 64 * sim::kKiB);
  CHECK(only(v90).postgres.checkpoint_segments == 3);
  const Plan v15 = load(json::object());  // 15 is the built-in version
  CHECK(only(v15).postgres.version == "15");
  CHECK(only(v15).postgres.checkpoint_completion_target == 0.9);
  CHECK(only(v15).postgres.log_checkpoints == true);
  // A version written as a JSON number means the same preset.
  CHECK(only(load({{"postgres", {{"version", 9.6}}}})).postgres.version == "9.6");
}

TEST_CASE("a component preset lies under the scenario's explicit values") {
  const Plan plan = load({{"postgres", {{"checkpoint_completion_target", 0.7}, {"version", "9.6"}}}});
  CHECK(only(plan).postgres.checkpoint_completion_target == 0.7);  // explicit, over 9.6's 0.5
  CHECK(only(plan).postgres.checkpoint_sorting == true);           // 9.6's, nobody else set it
}

TEST_CASE("a device preset fills the data and WAL devices") {
  const Plan plan = load({{"hardware", {{"device", "nvme"}, {"wal_device", "raid1-hdd-7200-bbwc"}}}});
  CHECK(only(plan).device.name == "nvme");
  CHECK(only(plan).device.kind == ckptsim::disk::Kind::Ssd);
  CHECK(only(plan).device.interface == ckptsim::disk::Interface::Nvme);
  CHECK(only(plan).wal_device.controller.cache == 512 * sim::kMiB);
  CHECK(only(plan).wal_device.mirrors == 2);
  CHECK(only(plan).resolved["devices"]["wal"]["controller_cache"] == "512MB");
  // Without a wal_device, WAL shares the data device.
  const Plan shared = load({{"hardware", {{"device", "hdd-15k-sas"}}}});
  CHECK(only(shared).wal_device.name == "hdd-15k-sas");
  CHECK(only(shared).wal_device.hdd.rpm == 15000);
  CHECK(!only(shared).wal_device.description.empty());
}

TEST_CASE("the device section sets the data device's values over its preset, and a grid can vary them") {
  const Plan plan = load({{"hardware", {{"device", "raid1-hdd-7200"}}},
                          {"device", {{"write_cache_extents", 16}, {"write_cache_size", "2MB"}}}});
  CHECK(only(plan).device.name == "raid1-hdd-7200");
  CHECK(only(plan).device.hdd.write_cache_extents == 16);
  CHECK(only(plan).device.hdd.write_cache_size == 2 * sim::kMiB);
  CHECK(only(plan).device.hdd.rpm == 7200);                    // the rest is the preset's
  CHECK(only(plan).wal_device.hdd.write_cache_extents == 16);  // the WAL shares that device
  CHECK(only(plan).resolved["devices"]["data"]["write_cache_extents"] == 16);
  const Plan grid = load({{"grid", {{"device.write_cache_extents", {16, 100}}}}});
  REQUIRE(grid.points.size() == 2);
  CHECK(grid.points[0].scenario.device.hdd.write_cache_extents == 16);
  CHECK(grid.points[1].scenario.device.hdd.write_cache_extents == 100);
  CHECK(errors_of({{"device", {{"write_cache_extents", 0}}}}) ==
        std::vector<std::string>{"/device/write_cache_extents: 0 is out of range (1..65536)"});
  CHECK(errors_of({{"device", {{"rppm", 7200}}}}) ==
        std::vector<std::string>{"/device/rppm: unknown setting; did you mean rpm?"});
}

TEST_CASE("the preset list, then --preset-file files, are merged in order, under the scenario file") {
  ScratchDir dir("preset-list");
  LoadOptions options;
  options.preset_files = {
      dir.write("fast-disk.json", R"({"description": "x", "hardware": {"device": "nvme", "cpus": 4}})"),
      dir.write("more-cpus.json", R"({"hardware": {"cpus": 16}})")};
  use_source_presets();
  const json doc = {{"preset", {"box/e1-host"}}, {"hardware", {{"ram", "32GB"}}}};
  const Plan plan = load_plan(doc, options);
  const Scenario& s = only(plan);
  CHECK(s.hardware.device == "nvme");       // fast-disk.json over box/e1-host
  CHECK(s.hardware.cpus == 16);             // more-cpus.json over fast-disk.json
  CHECK(s.hardware.ram == 32 * sim::kGiB);  // the file over every preset
  CHECK(s.os.kernel == "linux-3.2");        // from box/e1-host, not overridden
}

TEST_CASE("the E1 host box sets its hardware, kernel, mount and CPU cost") {
  const Scenario s = only(load({{"preset", {"box/e1-host"}}}));
  CHECK(s.hardware.cpus == 8);
  CHECK(s.hardware.ram == 16 * sim::kGiB);
  CHECK(s.hardware.device == "raid1-hdd-7200-250g");  // "200 GB RAID1 HDD" (pgsql-hackers, Feb 2016)
  CHECK(s.device.mirrors == 2);
  CHECK(s.device.capacity == 250059350016);
  CHECK(s.device.controller.cache == 0);  // md RAID1: no controller cache
  CHECK(s.device.hdd.write_cache);        // the drives' own caches acknowledge writes
  CHECK_FALSE(s.os.barrier);              // and no flush reaches them
  CHECK(s.os.kernel == "linux-3.2");
  CHECK(s.pgbench.cpu_update == 345 * sim::kMicrosecond);  // a box may set the host's statement cost
  CHECK(s.warmup.cpu_update == 345 * sim::kMicrosecond);   // for the warmup too
}

TEST_CASE("--set wins over the file, and its value is JSON if it parses as JSON") {
  LoadOptions options;
  options.sets = {"postgres.shared_buffers=2GB", "postgres.full_page_writes=false", "os.vm.dirty_ratio=40",
                  "pgbench.clients=8"};
  const Scenario s = only(load({{"postgres", {{"shared_buffers", "1GB"}}}, {"pgbench", {{"clients", 2}}}}, options));
  CHECK(s.postgres.shared_buffers == 2 * sim::kGiB);
  CHECK(s.postgres.full_page_writes == false);
  CHECK(s.os.dirty_ratio == 40);  // split at the first dot: section os, key vm.dirty_ratio
  CHECK(s.pgbench.clients == 8);
}

TEST_CASE("--set on postgres.version re-resolves the version preset") {
  LoadOptions options;
  options.sets = {"postgres.version=9.6"};
  const Scenario s = only(load({{"postgres", {{"version", "15"}}}}, options));
  CHECK(s.postgres.version == "9.6");
  CHECK(s.postgres.checkpoint_completion_target == 0.5);
}

TEST_CASE("the seed comes from the file unless the options override it") {
  CHECK(only(load({{"seed", 42}})).seed == 42);
  CHECK(only(load({{"seed", 42}})).resolved["seed"] == 42);
  LoadOptions options;
  options.seed = 7;
  CHECK(only(load({{"seed", 42}}, options)).seed == 7);
  CHECK(errors_of({{"seed", "x"}}) == std::vector<std::string>{"/seed: \"x\" is not an integer"});
  CHECK(errors_of({{"seed", -1}}) == std::vector<std::string>{"/seed: -1 is out of range (at least 0)"});
}

TEST_CASE("errors name the layer a bad value came from") {
  LoadOptions options;
  options.sets = {"postgres.shared_buffers=2 KB"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{"--set postgres.shared_buffers: \"2 KB\" is not a size (expected a number with "
                                 "one of B, kB, MB, GB, TB, e.g. \"128MB\"; units are case-sensitive)"});
  options.sets = {"postgres.shared_bufers=2GB"};
  CHECK(
      errors_of(json::object(), options) ==
      std::vector<std::string>{"--set postgres.shared_bufers: unknown setting; did you mean postgres.shared_buffers?"});
  options.sets = {"postgres.shared_buffers"};
  CHECK(
      errors_of(json::object(), options) ==
      std::vector<std::string>{"--set postgres.shared_buffers: expected PATH=VALUE, e.g. postgres.shared_buffers=2GB"});

  ScratchDir dir("bad-fragment");
  const std::filesystem::path bad = dir.write("bad.json", R"({"os": {"vm.dirty_ratio": 101}, "grid": {}})");
  LoadOptions with_file;
  with_file.preset_files = {bad};
  CHECK(errors_of(json::object(), with_file) ==
        std::vector<std::string>{bad.string() + ": /grid: unknown section (expected hardware, device, os, postgres, "
                                                "pgbench, init, warmup, description)",
                                 bad.string() + ": /os/vm.dirty_ratio: 101 is out of range (0..100)"});
}

TEST_CASE("an error in a shipped preset is reported with the preset's file") {
  // A scratch home with a broken copy of one version preset.
  ScratchDir home("broken-home");
  home.write("scenarios/presets/postgres/9.6.json",
             R"({"description": "broken", "postgres": {"checkpoint_completion_target": 2}})");
  home.write("scenarios/presets/device/raid1-hdd-7200.json",
             R"({"description": "d", "device": {"kind": "hdd", "capacity": "1TB"}})");
  home.write("scenarios/presets/os/linux-modern.json", R"({"os": {}})");
  ::setenv("CKPTSIM_HOME", home.path().c_str(), 1);
  std::vector<std::string> errors;
  try {
    load_plan(json{{"postgres", {{"version", "9.6"}}}});
  } catch (const ScenarioError& e) {
    errors = e.messages;
  }
  use_source_presets();
  CHECK(errors == std::vector<std::string>{
                      "presets/postgres/9.6.json: /postgres/checkpoint_completion_target: 2 is out of range (0..1)"});
}

TEST_CASE("an unknown preset is an error listing the available ones") {
  const auto errors = errors_of({{"preset", {"box/e2-host"}}});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0] ==
        "/preset/0: unknown preset \"box/e2-host\" (available: box/cloud-vm, box/e1-host, os/linux-3.0, "
        "os/linux-3.2, os/linux-modern, postgres/9.0, postgres/9.1, postgres/9.2, postgres/9.3, "
        "postgres/9.4, postgres/9.5, postgres/9.6, postgres/10, postgres/11, postgres/12, "
        "postgres/13, postgres/14, postgres/15, postgres/16, postgres/17, postgres/18)");
  CHECK(errors_of({{"postgres", {{"version", "9.7"}}}}) ==
        std::vector<std::string>{"/postgres/version: \"9.7\" is not one of 9.0, 9.1, 9.2, 9.3, 9.4, 9.5, 9.6, "
                                 "10, 11, 12, 13, 14, 15, 16, 17, 18"});
  CHECK(errors_of({{"hardware", {{"device", "floppy"}}}}) ==
        std::vector<std::string>{"/hardware/device: \"floppy\" is not one of azure-premium-p10, azure-premium-p20, "
                                 "azure-premium-p30, ebs-gp2-100, ebs-gp2-500, ebs-gp2-1000, ebs-gp2-5334, ebs-gp3, "
                                 "ebs-io2, gcp-pd-balanced, hdd-15k-sas, hdd-7200-sata, "
                                 "hdd-7200-sata-250g, nvme, raid1-hdd-7200, raid1-hdd-7200-250g, "
                                 "raid1-hdd-7200-bbwc, ssd-sata, virtio-this-machine"});
}

TEST_CASE("a file that is not JSON is reported with its line and column") {
  ScratchDir dir("bad-json");
  const auto file = dir.write("s.json", "{\n  \"postgres\": {\n    \"shared_buffers\": 2GB\n  }\n}\n");
  const std::vector<std::string> errors = testing::errors_of_file(file);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].starts_with(file.string() + ": invalid JSON at line 3, column 24: "));
}

TEST_CASE("a number too large for a double is an error with its place, not a JSON library exception") {
  use_source_presets();
  // nlohmann throws out_of_range 406 for it, which used to escape load_plan (fuzz_scenario).
  const std::string text = "{\n  \"seed\": 1, \"description\": \"1e999\",\n  \"os\": {\"vm.dirty_ratio\": 11e308}\n}";
  std::vector<std::string> errors;
  try {
    load_plan_text(text, "s.json");
  } catch (const ScenarioError& e) {
    errors = e.messages;
  }
  CHECK(errors == std::vector<std::string>{"s.json: invalid JSON: 11e308 at line 3, column 28 is out of range "
                                           "(a JSON number here is a double, at most about 1.8e308)"});
}

TEST_CASE("a preset list names shipped presets only: a file of one's own comes with --preset-file") {
  // A scenario from someone else must not read the user's files through its list.
  ScratchDir dir("file-load");
  dir.write("boxes/mine.json", R"({"hardware": {"cpus": 2}})");
  const auto file = dir.write("s.json", R"({"preset": ["boxes/mine.json"], "pgbench": {"clients": 2}})");
  const std::vector<std::string> errors = testing::errors_of_file(file);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("/preset/0: \"boxes/mine.json\" is not a shipped preset: the list names presets, never "
                        "files; give a file of your own with --preset-file boxes/mine.json (available: box/cloud-vm",
                        0) == 0);
  for (const char* name : {"/etc/hostname.json", "../x.json", "~/.ssh/id_rsa"}) {
    const auto refused = errors_of({{"preset", {name}}});
    REQUIRE(refused.size() == 1);
    CHECK(refused[0].find("--preset-file " + std::string(name)) != std::string::npos);
  }
  // Given on the command line, the same file is read.
  LoadOptions options;
  options.preset_files = {dir.path() / "boxes/mine.json"};
  const Plan plan = load_plan(json{{"pgbench", {{"clients", 2}}}}, options);
  CHECK(plan.points.at(0).scenario.hardware.cpus == 2);
  options.preset_files = {dir.path() / "none.json"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{"--preset-file " + (dir.path() / "none.json").string() + ": no such file"});
}

TEST_CASE("a preset by name is a shipped one: a name cannot climb out of the presets folder") {
  const auto errors = errors_of({{"preset", {"../../../../../../etc/hostname"}}});
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("/preset/0: \"../../../../../../etc/hostname\" is not a shipped preset", 0) == 0);
  // os/linux-3.2 is shipped: found; the same file reached through a detour is not.
  CHECK(errors_of({{"preset", {"os/linux-3.2"}}}).empty());
  CHECK(errors_of({{"preset", {"box/../os/linux-3.2"}}}).size() == 1);
  CHECK(errors_of({{"preset", {"box/e1-hots"}}})
            .at(0)
            .rfind("/preset/0: unknown preset \"box/e1-hots\" (available:", 0) == 0);
}

TEST_CASE("a device preset's destage settings are read in their units and checked with their JSON path") {
  ScratchDir home("destage-home");
  home.write("scenarios/presets/device/raid1-hdd-7200.json",
             R"({"description": "d", "device": {"command_setup": "0.3ms", "destage_window": 16,
                 "destage_order": "lba"}})");
  home.write("scenarios/presets/device/nvme.json",
             R"({"description": "d", "device": {"command_setup": "1ms", "destage_window": -1,
                 "destage_order": "elevator"}})");
  ::setenv("CKPTSIM_HOME", home.path().c_str(), 1);
  const Plan plan = load_plan(json::object());
  const disk::DeviceConfig& d = plan.points.at(0).scenario.device;
  CHECK(d.hdd.command_setup == 300 * sim::kMicrosecond);
  CHECK(d.hdd.destage_window == 16);
  CHECK(d.hdd.destage_order == disk::DestageOrder::Lba);
  const json& shown = plan.points.at(0).scenario.resolved["devices"]["data"];
  CHECK(shown["command_setup"] == "300us");
  CHECK(shown["destage_window"] == 16);
  CHECK(shown["destage_order"] == "lba");
  std::vector<std::string> errors;
  try {
    load_plan(json{{"hardware", {{"device", "nvme"}}}});
  } catch (const ScenarioError& e) {
    errors = e.messages;
  }
  use_source_presets();
  CHECK(errors == std::vector<std::string>{
                      "presets/device/nvme.json: /device/command_setup: \"1ms\" is out of range (0..500us)",
                      "presets/device/nvme.json: /device/destage_window: -1 is out of range (0..65536)",
                      "presets/device/nvme.json: /device/destage_order: \"elevator\" is not one of positioning, "
                      "lba, fifo"});
}

TEST_CASE("--set seed=N sets the scenario's seed, as --set repeat=N its repeat; --seed wins over both") {
  LoadOptions options;
  options.sets = {"seed=5"};
  CHECK(only(load({{"seed", 2}}, options)).seed == 5);
  options.seed = 9;
  CHECK(only(load({{"seed", 2}}, options)).seed == 9);
  LoadOptions bad;
  bad.sets = {"seed=-1"};
  CHECK(errors_of(json::object(), bad) == std::vector<std::string>{"--set seed: -1 is out of range (at least 0)"});
}

TEST_CASE("a value past what 64 bits hold names the range's upper end too, in the owner's unit") {
  LoadOptions options;
  options.sets = {"pgbench.duration=10000000d"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{"--set pgbench.duration: \"10000000d\" is out of range (0..106751d)"});
  options.sets = {"os.vm.dirty_bytes=100000000TB"};
  CHECK(errors_of(json::object(), options) ==
        std::vector<std::string>{"--set os.vm.dirty_bytes: \"100000000TB\" is out of range (0..8387584TB)"});
}
