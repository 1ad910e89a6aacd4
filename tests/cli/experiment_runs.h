// tests/cli/experiment_runs.h
//
// Helpers for the tests of the shipped experiment scenarios
// (scenarios/e2-bgwriter.json, e3-fpw.json, e4-threads.json,
// bgwriter-sweep.json): run one, shortened by --set, and read a point's
// summary.json and CSV columns.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/csv.h"
#include "tests/cli/run_helpers.h"

namespace ckptsim::testing {

// Runs scenarios/FILE with `sets` ("--set a=b --set c=d") into tmp/out; REQUIREs that it succeeded.
inline std::filesystem::path run_shipped(const std::string& file, const std::string& sets, const TempDir& tmp) {
  const std::filesystem::path scenario = std::filesystem::path(CKPTSIM_SOURCE_DIR) / "scenarios" / file;
  const auto r = run_ckptsim("run " + quoted(scenario) + " --out " + quoted(tmp / "out") + " --quiet " + sets, tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return tmp / "out";
}

inline nlohmann::json summary_of(const std::filesystem::path& point) {
  return nlohmann::json::parse(slurp(point / "summary.json"));
}

// A numeric column of a point's CSV, one value per row.
inline std::vector<double> csv_column(const std::filesystem::path& file, const std::string& name) {
  const auto table = analysis::read_csv(file);
  const int at = table.column(name);
  REQUIRE_MESSAGE(at >= 0, std::string(file.string() + " has no column " + name));
  std::vector<double> out;
  for (const auto& row : table.rows)
    out.push_back(row[static_cast<std::size_t>(at)].empty() ? 0.0 : std::stod(row[static_cast<std::size_t>(at)]));
  return out;
}

}  // namespace ckptsim::testing
