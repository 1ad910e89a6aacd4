#include "cli/folder/run_files.h"

#include <regex>
#include <set>

#include <fmt/format.h>

namespace ckptsim::cli::run_files {

namespace {

// Every file that run_point, the plots and run_plan write. A test runs a grid
// and checks that nothing it leaves is missing from these lists.
const std::set<std::string, std::less<>> kPointFiles = {
    kRunRecord,   kProgressCsv, kSystemCsv, kWaitsCsv,   kIoLayersCsv,   kPostgresLog, kCheckpointsCsv, kPgbenchLog,
    kSummaryJson, kPerfJson,    kCrashJson, kPlotScript, kOwnPlotScript, kTpsPng,      kTpsSvg,         kSystemPng,
    // what `validate` adds to its run's folder
    kValidateJson, kComparePng, kCompareSvg, kCompareScript};
const std::set<std::string, std::less<>> kGridFiles = {kSummaryCsv,    kSummaryMeanCsv, kReportTxt,  kPlotScript,
                                                       kOwnPlotScript, kGridRecord,     kOverlayPng, kOverlaySvg,
                                                       kGridPng,       kStabilityPng,   kIndexHtml};

}  // namespace

bool is_aggregate_log(const std::string& name) {
  static const std::regex thread_suffix(R"([0-9]+(\.[0-9]+)?)");
  const std::string_view prefix = kAggregateLogPrefix;
  return name.starts_with(prefix) && std::regex_match(name.substr(prefix.size()), thread_suffix);
}

const analysis::TpsInputNames& tps_input_names() {
  static const analysis::TpsInputNames names = {.progress = kProgressCsv,
                                                .aggregate_logs = std::string(kAggregateLogPrefix) + "*",
                                                .is_aggregate_log = &is_aggregate_log};
  return names;
}

std::string aggregate_log_name(int pgbench_pid, std::size_t thread) {
  return thread == 0 ? fmt::format("{}{}", kAggregateLogPrefix, pgbench_pid)
                     : fmt::format("{}{}.{}", kAggregateLogPrefix, pgbench_pid, thread);
}

bool is_temporary_name(const std::string& name) {
  // AtomicFile: ".tmp.<pid>.<n>"; the plots' gnuplot outputs: ".tmp.<pid>".
  static const std::regex pattern(R"(.+\.tmp\.[0-9]+(\.[0-9]+)?)");
  return std::regex_match(name, pattern);
}

bool is_own_temporary(const std::string& name) {
  static const std::regex pattern(R"((.+)\.tmp\.[0-9]+(\.[0-9]+)?)");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return false;
  const std::string base = match[1].str();
  return kPointFiles.contains(base) || kGridFiles.contains(base) || is_aggregate_log(base);
}

std::string temporary_name(const std::string& name, long pid) { return fmt::format("{}.tmp.{}", name, pid); }

std::optional<long> temporary_pid(const std::string& name) {
  static const std::regex pattern(R"(.+\.tmp\.([0-9]{1,9})(\.[0-9]+)?)");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  return std::stol(match[1].str());
}

const std::vector<std::string>& always_written() {
  static const std::vector<std::string> names = {kRunRecord,   kProgressCsv, kSystemCsv, kWaitsCsv,
                                                 kIoLayersCsv, kPostgresLog, kPerfJson,  kCheckpointsCsv,
                                                 kPgbenchLog,  kSummaryJson};
  return names;
}

bool is_point_file(const std::string& name) {
  return kPointFiles.contains(name) || is_aggregate_log(name) || is_own_temporary(name);
}

bool is_grid_file(const std::string& name) { return kGridFiles.contains(name); }

}  // namespace ckptsim::cli::run_files
