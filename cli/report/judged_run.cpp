#include "cli/report/judged_run.h"

#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "analysis/regular_file.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/summary_stability.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// A progress.csv beside a summary.json of a stopped run is partial: say so.
// nullopt when there is no readable summary.json to tell.
std::optional<bool> run_complete(const fs::path& progress_csv) {
  const auto summary_path = progress_csv.parent_path() / run_files::kSummaryJson;
  const auto head = analysis::read_regular_file(summary_path, 64 << 20);  // never a FIFO
  if (!head) return std::nullopt;
  const auto summary = nlohmann::json::parse(head->text, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object() || !summary.contains("complete") || !summary["complete"].is_boolean()) return std::nullopt;
  if (!summary["complete"].get<bool>()) {
    const auto stopped_by = summary.value("stopped_by", nlohmann::json("stopped"));
    std::cerr << "warning: " << printable(summary_path.string()) << " says this run was stopped before its end ("
              << printable(stopped_by.is_string() ? stopped_by.get<std::string>() : stopped_by.dump())
              << "): the figures cover only the intervals it ran\n";
  }
  return summary["complete"].get<bool>();
}

}  // namespace

Judged judge(const std::vector<fs::path>& inputs, double threshold, double interval_s) {
  Judged j{analysis::read_tps_input(run_files::tps_input_names(), inputs, interval_s), {}, std::nullopt};
  const auto& c = j.input.counts;
  j.stability = analysis::compute_stability(j.input.tps, threshold, c.transactions, c.skipped, c.late);
  if (j.input.format == fmt::format("ckptsim {}", run_files::kProgressCsv))
    j.complete = run_complete(j.input.files.front());
  return j;
}

nlohmann::ordered_json figures_json(const Judged& j) {
  nlohmann::ordered_json figures{{"format", j.input.format},
                                 {"interval_s", j.input.interval_s},
                                 {"intervals", j.input.tps.size()},
                                 {"transactions", j.input.counts.transactions}};
  const nlohmann::ordered_json stability = stability_json(j.stability);  // named: items() of a temporary dangles
  for (const auto& [key, value] : stability.items()) figures[key] = value;
  // What the file does not report is null, not a 0 that looks measured.
  if (!j.input.has_skipped) figures["skipped_pct"] = nullptr;
  if (!j.input.has_late) figures["late_pct"] = nullptr;
  // pgbench 15+ counts failed transactions (serialization, deadlock); older logs and ckptsim do not.
  figures["failed"] = j.input.has_failed ? nlohmann::ordered_json(j.input.failed) : nlohmann::ordered_json(nullptr);
  if (j.complete) figures["complete"] = *j.complete;
  return figures;
}

std::string pct_or_na(bool known, double pct) { return known ? fmt::format("{:.3f}%", pct) : "n/a"; }

std::string failed_or_na(const analysis::TpsInput& input) {
  return input.has_failed ? fmt::format("{}", input.failed) : "n/a";
}

}  // namespace ckptsim::cli
