// cli/report/judged_run.h
//
// The stability figures of any run, real or simulated, from what it left
// (analysis/tps_input.h), so that a real pgbench run on a box can be held
// against its simulation on the same terms: what `analyze` prints for one run
// and `compare` for two. What came from the user's files (names, fields,
// quoted in errors) is printed through printable(): a log line's ESC is
// shown, not obeyed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/stability.h"
#include "analysis/tps_input.h"

namespace ckptsim::cli {

struct Judged {
  analysis::TpsInput input;
  analysis::Stability stability;
  std::optional<bool> complete;
};

// Reads the inputs (files, or a run folder) and judges their tps; a ckptsim
// run stopped before its end is said so on stderr. Throws std::runtime_error
// for what it cannot read.
Judged judge(const std::vector<std::filesystem::path>& inputs, double threshold, double interval_s);

// The figures as `--json` prints them; what the file does not report is null.
nlohmann::ordered_json figures_json(const Judged& j);

// "1.250%", or "n/a" for a figure that the file does not report.
std::string pct_or_na(bool known, double pct);

// The failed transactions a pgbench 15+ log counts, or "n/a".
std::string failed_or_na(const analysis::TpsInput& input);

}  // namespace ckptsim::cli
