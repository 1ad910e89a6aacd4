// cli/report/run_summary.h
//
// A run's summary.json (pgbench's final summary, the stability figures, the
// servers' and the kernel's views: a pure function of the scenario and its
// seed) and perf.json (wall-clock figures: the only machine-dependent file).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "cli/folder/summary_stability.h"
#include "cli/host/machine.h"
#include "cli/report/run_outcome.h"
#include "models/pgbench/transaction_stats.h"
#include "sim/profile.h"

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

struct MeasuredRun {
  const pgbench::TransactionSums& total;
  const pgbench::LatencyHistogram& latency;  // the whole run's, for its percentiles
  double duration_s;
  const std::string& report;            // pgbench's final summary text
  const nlohmann::ordered_json& waits;  // BackendWaits::summary_json
  std::string stopped_by;               // empty for a run that went to its end
  std::optional<double> crash_at_s;     // --crash-at: the run ended in a power loss there
  sim::Time origin = 0;                 // the measured run's start: summary times count from it
  // A chained point's start and end states (cli/run/run_chain.h): summary.json's "start_state", "end_state".
  const std::optional<nlohmann::ordered_json>& start_state;
  const std::optional<nlohmann::ordered_json>& end_state;
};

// summary.json's pgbench.latency_ms: the whole run's p50, p90, p99 and p99.9 in ms
// (latency_histogram.h gives their precision), 0 without transactions.
nlohmann::ordered_json latency_percentiles_json(const pgbench::LatencyHistogram& h);

void write_summary(const std::filesystem::path& dir, const scenarios::Scenario& scenario, const MeasuredRun& run,
                   const RunOutcome& outcome, const Machine& machine);
// The summary.json of a run stopped before its first measured interval:
// during its setup (pgbench -i's tables, the page cache they leave,
// pg_prewarm: sim/interrupt.h) or its warmup, which `stopped_during` names.
// It measured nothing, so its "stability" is null.
void write_setup_stopped_summary(const std::filesystem::path& dir, const scenarios::Scenario& scenario,
                                 const std::string& stopped_by, const std::string& stopped_during);
// perf.json: wall-clock figures, and with --profile the share of each component (run_profile.h).
void write_perf(const std::filesystem::path& dir, const RunOutcome& outcome, const MeasuredRun& run,
                const sim::Profile* profile = nullptr);

}  // namespace ckptsim::cli
