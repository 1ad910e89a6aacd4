// tests/analysis/run_folder_names.h: ckptsim's names for a run folder's
// files, as cli/folder/run_files.h gives them to analysis/tps_input.h; spelled
// here because users rely on them.
#pragma once

#include <regex>
#include <string>

#include "analysis/tps_input.h"

namespace ckptsim::analysis::testing {

inline bool is_aggregate_log(const std::string& name) {
  static const std::regex pattern(R"(pgbench_log\.[0-9]+(\.[0-9]+)?)");
  return std::regex_match(name, pattern);
}

inline const TpsInputNames kRunFolder = {
    .progress = "progress.csv", .aggregate_logs = "pgbench_log.*", .is_aggregate_log = &is_aggregate_log};

}  // namespace ckptsim::analysis::testing
