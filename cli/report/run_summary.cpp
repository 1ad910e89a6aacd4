#include "cli/report/run_summary.h"

#include "cli/report/run_profile.h"

#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "cli/folder/run_files.h"
#include "cli/report/views_json.h"

namespace ckptsim::cli {

namespace {

using json = nlohmann::ordered_json;

double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in kB on Linux
}

double per_second(double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; }

}  // namespace

json latency_percentiles_json(const pgbench::LatencyHistogram& h) {
  return {{"p50", h.percentile_ms(50)},
          {"p90", h.percentile_ms(90)},
          {"p99", h.percentile_ms(99)},
          {"p99_9", h.percentile_ms(99.9)}};
}

void write_summary(const std::filesystem::path& dir, const scenarios::Scenario& sc, const MeasuredRun& run,
                   const RunOutcome& outcome, const Machine& machine) {
  const pgbench::TransactionSums& total = run.total;
  json summary;
  // A stopped run's figures cover only the intervals it ran: no reader may take them for the run's.
  summary["complete"] = run.stopped_by.empty();
  if (!run.stopped_by.empty()) summary["stopped_by"] = run.stopped_by;
  if (run.crash_at_s) summary["crash_at_s"] = *run.crash_at_s;  // the figures end at the power loss
  summary["settings"] = sc.resolved;
  if (run.start_state) summary["start_state"] = *run.start_state;
  if (run.end_state) summary["end_state"] = *run.end_state;
  summary["pgbench"] = {{"transactions", total.transactions},
                        {"tps", per_second(static_cast<double>(total.transactions), run.duration_s)},
                        {"latency_avg_ms", total.latency_avg_ms()},
                        {"latency_stddev_ms", total.latency_stddev_ms()},
                        {"latency_max_ms", total.latency_max_ms()},
                        {"latency_ms", latency_percentiles_json(run.latency)},
                        {"lag_avg_ms", total.lag_avg_ms()},
                        {"lag_max_ms", total.lag_max_ms()},
                        {"skipped", total.skipped},
                        {"late", total.late},
                        {"duration_s", run.duration_s},
                        {"report", run.report}};
  summary["stability"] = stability_json(outcome.stability);
  summary["waits"] = run.waits;
  // Named first: iterating items() of a temporary would dangle.
  const json server_views = server_views_json(machine.server, run.origin),
             kernel_views = kernel_json(machine.kernel.report());
  for (const auto& [key, value] : server_views.items()) summary[key] = value;
  for (const auto& [key, value] : kernel_views.items()) summary[key] = value;
  summary["sim"] = {{"events", outcome.events}, {"simulated_seconds", outcome.simulated_seconds}};
  analysis::write_file_atomically(dir / run_files::kSummaryJson, summary.dump(2) + "\n");
}

void write_setup_stopped_summary(const std::filesystem::path& dir, const scenarios::Scenario& sc,
                                 const std::string& stopped_by, const std::string& stopped_during) {
  json summary;
  summary["complete"] = false;
  summary["stopped_by"] = stopped_by;
  summary["stopped_during"] = stopped_during;
  summary["settings"] = sc.resolved;
  summary["stability"] = nullptr;  // no interval measured: no figure, rather than zeros a reader could take
  analysis::write_file_atomically(dir / run_files::kSummaryJson, summary.dump(2) + "\n");
}

void write_perf(const std::filesystem::path& dir, const RunOutcome& outcome, const MeasuredRun& run,
                const sim::Profile* profile) {
  const double wall = outcome.wall_seconds;
  json perf = {{"wall_seconds", wall},
               {"events", outcome.events},
               {"events_per_second", per_second(static_cast<double>(outcome.events), wall)},
               {"simulated_seconds_per_wall_second", per_second(outcome.simulated_seconds, wall)},
               {"transactions_per_wall_second", per_second(static_cast<double>(run.total.transactions), wall)},
               {"peak_memory_mb", peak_memory_mb()}};
  if (profile != nullptr) perf["profile"] = profile_json(*profile, wall);
  analysis::write_file_atomically(dir / run_files::kPerfJson, perf.dump(2) + "\n");
}

}  // namespace ckptsim::cli
