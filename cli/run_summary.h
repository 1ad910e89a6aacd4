// cli/run_summary.h
//
// A run's summary.json (pgbench's final summary, the stability figures, the
// servers' and the kernel's views: a pure function of the scenario and its
// seed) and perf.json (wall-clock figures: the only machine-dependent file).
#pragma once

#include <filesystem>
#include <string>

#include "cli/machine.h"
#include "cli/run_point.h"
#include "models/pgbench/transaction_stats.h"

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

struct MeasuredRun {
  const pgbench::TransactionSums& total;
  double duration_s;
  const std::string& report;  // pgbench's final summary text
  const nlohmann::ordered_json& waits;  // BackendWaits::summary_json
};

void write_summary(const std::filesystem::path& dir, const scenarios::Scenario& scenario, const MeasuredRun& run,
                   const RunOutcome& outcome, const Machine& machine);
void write_perf(const std::filesystem::path& dir, const RunOutcome& outcome, const MeasuredRun& run);

}  // namespace ckptsim::cli
