// tests/scenarios/scenario_files.h
//
// Test helpers: a scratch folder for scenario files (removed afterwards),
// and loading a scenario document to either a plan or its error messages.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "scenarios/scenario.h"

// Lists of messages print one per line when a check fails.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& lines) {
    std::string out = "{";
    for (const std::string& line : lines) out += "\n  " + line;
    return (out + "\n}").c_str();
  }
};
}  // namespace doctest

namespace ckptsim::scenarios::testing {

class ScratchDir {
 public:
  explicit ScratchDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("ckptsim-scen-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The presets shipped in the source tree, whatever the environment says.
inline void use_source_presets() { ::setenv("CKPTSIM_HOME", CKPTSIM_SOURCE_DIR, 1); }

inline Plan load(const json& doc, const LoadOptions& options = {}) {
  use_source_presets();
  return load_plan(doc, options);
}

// The messages of the ScenarioError that loading `doc` throws (empty if none).
inline std::vector<std::string> errors_of(const json& doc, const LoadOptions& options = {}) {
  use_source_presets();
  try {
    load_plan(doc, options);
  } catch (const ScenarioError& e) {
    return e.messages;
  }
  return {};
}

// The messages of the ScenarioError that loading the scenario file `file` throws (empty if none).
inline std::vector<std::string> errors_of_file(const std::filesystem::path& file) {
  use_source_presets();
  try {
    load_plan(file);
  } catch (const ScenarioError& e) {
    return e.messages;
  }
  return {};
}

}  // namespace ckptsim::scenarios::testing
