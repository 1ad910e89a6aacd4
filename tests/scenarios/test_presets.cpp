// tests/scenarios/test_presets.cpp
//
// The shipped presets: what list_presets returns and in which order, and
// that every shipped file loads (each version, kernel and device as the one
// chosen by a scenario).
#include <doctest/doctest.h>

#include <algorithm>

#include "scenario_files.h"

using namespace ckptsim;
using namespace ckptsim::scenarios;
using ckptsim::scenarios::testing::errors_of;
using ckptsim::scenarios::testing::use_source_presets;

TEST_CASE("list_presets sorts by kind, then names in natural version order") {
  use_source_presets();
  std::vector<std::string> listed;
  for (const PresetInfo& p : list_presets()) listed.push_back(p.kind + "/" + p.name);
  CHECK(listed == std::vector<std::string>{
                      "box/cloud-vm",
                      "box/e1-host",
                      "device/azure-premium-p10",
                      "device/azure-premium-p20",
                      "device/azure-premium-p30",
                      "device/ebs-gp2-100",
                      "device/ebs-gp2-500",
                      "device/ebs-gp2-1000",
                      "device/ebs-gp2-5334",
                      "device/ebs-gp3",
                      "device/ebs-io2",
                      "device/gcp-pd-balanced",
                      "device/hdd-15k-sas",
                      "device/hdd-7200-sata",
                      "device/hdd-7200-sata-250g",
                      "device/nvme",
                      "device/raid1-hdd-7200",
                      "device/raid1-hdd-7200-250g",
                      "device/raid1-hdd-7200-bbwc",
                      "device/ssd-sata", "device/virtio-this-machine",
                      "os/linux-3.0",
                      "os/linux-3.2",
                      "os/linux-modern",
                      "postgres/9.0",
                      "postgres/9.1",
                      "postgres/9.2",
                      "postgres/9.3",
                      "postgres/9.4",
                      "postgres/9.5",
                      "postgres/9.6",
                      "postgres/10",
                      "postgres/11",
                      "postgres/12",
                      "postgres/13",
                      "postgres/14",
                      "postgres/15",
                      "postgres/16",
                      "postgres/17",
                      "postgres/18",
                  });
}

TEST_CASE("every preset has a one-line description and a path to its file") {
  use_source_presets();
  for (const PresetInfo& p : list_presets()) {
    CAPTURE(p.name);
    CHECK_FALSE(p.description.empty());
    CHECK(p.description.find('\n') == std::string::npos);
    CHECK(p.path == std::filesystem::path(CKPTSIM_SOURCE_DIR) / "scenarios" / "presets" / p.kind / (p.name + ".json"));
  }
  const auto presets = list_presets();
  const auto box =
      std::find_if(presets.begin(), presets.end(), [](const PresetInfo& p) { return p.name == "e1-host"; });
  REQUIRE(box != presets.end());
  CHECK(box->description.rfind("E1 host: ", 0) == 0);  // read from the file's own description
}

TEST_CASE("CKPTSIM_HOME chooses where presets are found") {
  ::setenv("CKPTSIM_HOME", "/nonexistent-ckptsim-home", 1);
  CHECK(project_home() == std::filesystem::path("/nonexistent-ckptsim-home"));
  CHECK(list_presets().empty());
  ::unsetenv("CKPTSIM_HOME");
  // The test binary is not under a project folder: the source tree it was built from.
  CHECK(project_home() == std::filesystem::path(CKPTSIM_SOURCE_DIR));
  use_source_presets();
}

TEST_CASE("every shipped component preset loads cleanly") {
  use_source_presets();
  for (const std::string& version : preset_names("postgres")) {
    CAPTURE(version);
    CHECK(errors_of({{"postgres", {{"version", version}}}}).empty());
  }
  for (const std::string& kernel : preset_names("os")) {
    CAPTURE(kernel);
    CHECK(errors_of({{"os", {{"kernel", kernel}}}}).empty());
  }
  for (const std::string& device : preset_names("device")) {
    CAPTURE(device);
    CHECK(errors_of({{"hardware", {{"device", device}, {"wal_device", device}}}}).empty());
  }
}

namespace {
postgres::PostgresConfig pg(const std::string& version) {
  return testing::load({{"postgres", {{"version", version}}}}).points.at(0).scenario.postgres;
}
}  // namespace

TEST_CASE("version presets switch what changed between releases") {
  // wal_buffers: fixed 64kB in 9.0, automatic from 9.1.
  CHECK(pg("9.0").wal_buffers == 64 * sim::kKiB);
  CHECK(pg("9.1").wal_buffers == -1);
  // Sorted writes and *_flush_after arrive in 9.6.
  CHECK(pg("9.2").checkpoint_sorting == false);
  CHECK(pg("9.2").bgwriter_flush_after == 0);
  CHECK(pg("9.6").checkpoint_sorting == true);
  CHECK(pg("9.6").bgwriter_flush_after == 512 * sim::kKiB);
  // checkpoint_completion_target 0.9 from 14; log_checkpoints on from 15.
  CHECK(pg("9.6").checkpoint_completion_target == 0.5);
  CHECK(pg("17").checkpoint_completion_target == 0.9);
  CHECK(pg("9.6").log_checkpoints == false);
  CHECK(pg("15").log_checkpoints == true);
  // 18: initdb enables data checksums (release-18.sgml, "Change initdb to default to enabling checksums").
  CHECK(pg("17").data_checksums == false);
  CHECK(pg("18").data_checksums == true);
  CHECK(pg("18").wal_log_hints == false);
  CHECK(pg("18").io_method == postgres::IoMethod::Worker);
  CHECK(pg("18").io_workers == 3);
}

TEST_CASE("16, 17 and 18 have the same defaults for every other modelled setting") {
  // guc_tables.c of 16, 17 and 18: no default of a modelled setting changed; 18's
  // changes to effective_io_concurrency / maintenance_io_concurrency (16) touch no modelled path.
  const auto resolved = [](const std::string& version) {
    json pg = testing::load({{"postgres", {{"version", version}}}}).points.at(0).scenario.resolved.at("postgres");
    for (const char* key : {"version", "data_checksums", "io_method", "io_workers"}) pg.erase(key);
    return pg;
  };
  const json fifteen = resolved("15");
  for (const char* version : {"16", "17", "18"}) {
    CAPTURE(version);
    CHECK(resolved(version) == fifteen);
  }
}
