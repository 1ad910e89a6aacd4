// Every scenario shipped in scenarios/ loads as `ckptsim check` loads it:
// the README's commands and the experiments' files never break unnoticed.
#include <doctest/doctest.h>

#include <algorithm>

#include "scenario_files.h"

using namespace ckptsim::scenarios;

TEST_CASE("every shipped scenario loads without errors; the experiments' say which host they assume") {
  testing::use_source_presets();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(CKPTSIM_SOURCE_DIR) / "scenarios"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  // The experiments' files among them (docs/EXPERIMENTS.md).
  for (const char* name : {"default.json", "e1-small.json", "e1-medium.json", "e2-bgwriter.json", "bgwriter-sweep.json",
                           "e3-fpw.json", "e4-threads.json"}) {
    CAPTURE(name);
    const auto file = std::filesystem::path(CKPTSIM_SOURCE_DIR) / "scenarios" / name;
    REQUIRE(std::find(files.begin(), files.end(), file) != files.end());
    const auto doc = json::parse(std::ifstream(file));
    REQUIRE(doc.contains("description"));
    CHECK(doc["description"].get<std::string>().find("ost") != std::string::npos);  // "host" / "Host"
  }
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    CHECK(testing::errors_of_file(file) == std::vector<std::string>{});
  }
}
