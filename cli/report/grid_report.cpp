#include "cli/report/grid_report.h"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/report/grid_reports.h"
#include "cli/report/plot_folder.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

void write_grid_record(const fs::path& dir, const scenarios::Plan& plan, const std::string& title, double threshold,
                       const std::string& scenario_file) {
  nlohmann::ordered_json record = {{"title", title}};
  std::vector<std::string> names;
  for (const scenarios::GridPoint& point : plan.points) names.push_back(point.name);
  record["points"] = names;
  if (!scenario_file.empty()) record[kScenarioFileKey] = scenario_file;
  if (plan.chained) record["chain"] = {{"order", names}};
  record["threshold"] = threshold;
  record["paths"] = plan.grid_paths;
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const scenarios::GridPoint& point : plan.points) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (const auto& [path, value] : point.values) row.push_back(value);
    values.push_back(std::move(row));
  }
  record["values"] = std::move(values);
  if (plan.repeat > 1) {
    record["repeat"] = plan.repeat;
    nlohmann::ordered_json repeats = nlohmann::ordered_json::array(), of = nlohmann::ordered_json::array();
    for (const scenarios::GridPoint& point : plan.points) {
      repeats.push_back(point.repeat);
      of.push_back(point.base_name);
    }
    record["point_repeat"] = std::move(repeats);
    record["repeat_of"] = std::move(of);
  }
  // The checksum of the plot.gp ckptsim wrote, so that the next plot still tells its own script from an edit.
  const auto before = nlohmann::json::parse(read_text(dir / run_files::kGridRecord), nullptr, false);
  if (before.is_object() && before.value(kPlotChecksumKey, nlohmann::json()).is_string())
    record[kPlotChecksumKey] = before[kPlotChecksumKey];
  analysis::write_file_atomically(dir / run_files::kGridRecord, record.dump(2) + "\n");
}

namespace {

// grid.json's setting paths, each point's values ("" when grid.json is an
// older one without them: the folder names then label the rows) and its
// repeat (0 without repeats).
struct GridColumns {
  std::vector<std::string> paths;
  std::vector<std::vector<std::string>> cells;  // per point
  std::vector<int> repeats;                     // per point
};

std::string cell_text(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

GridColumns grid_columns(const nlohmann::json& record, std::size_t points) {
  GridColumns columns;
  columns.cells.resize(points);
  columns.repeats.resize(points, 0);
  if (record.contains("paths") && record["paths"].is_array())
    for (const auto& path : record["paths"]) columns.paths.push_back(cell_text(path));
  const bool repeats =
      record.contains("point_repeat") && record["point_repeat"].is_array() && record["point_repeat"].size() == points;
  const nlohmann::json values = record.value("values", nlohmann::json::array());
  for (std::size_t i = 0; i < points; ++i) {
    if (values.is_array() && i < values.size() && values[i].is_array())
      for (const auto& value : values[i]) columns.cells[i].push_back(cell_text(value));
    columns.cells[i].resize(columns.paths.size());
    if (repeats && record["point_repeat"][i].is_number_integer())
      columns.repeats[i] = record["point_repeat"][i].get<int>();
  }
  return columns;
}

}  // namespace

GridReport report_grid(const fs::path& dir, bool warn_without_gnuplot) {
  const GridIndex index = read_grid_index(dir, /*missing_ok=*/true);  // checks grid.json and its point names
  const auto record = nlohmann::json::parse(read_text(dir / run_files::kGridRecord), nullptr, false);
  const double threshold = record.value("threshold", 10.0);
  const std::size_t n = record["points"].size();
  const GridColumns columns = grid_columns(record, n);
  GridReport report;
  std::vector<analysis::ReportRow> rows;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = record["points"][i].get<std::string>();
    const bool there = std::find(index.missing.begin(), index.missing.end(), name) == index.missing.end();
    const auto outcome = there ? finished_run(dir / name) : std::nullopt;
    if (!outcome) {
      report.missing.push_back(name);
      continue;
    }
    // Every figure from the point's own summary.json (grid_reports.h).
    rows.push_back(point_report_row(dir / name, columns.cells[i], columns.repeats[i]));
  }
  report.text = grid_report_text(columns.paths, rows, threshold);
  if (!report.missing.empty()) {
    std::string names;
    for (const std::string& name : report.missing) names += (names.empty() ? "" : ", ") + name;
    report.text += fmt::format("missing or incomplete: {} of {} points: {}\n", report.missing.size(), n, names);
  }
  write_grid_tables(dir, columns.paths, rows);
  analysis::write_file_atomically(dir / run_files::kReportTxt, report.text);
  if (analysis::gnuplot_available()) {
    plot_folder(dir, index.title, /*missing_ok=*/true);
  } else if (warn_without_gnuplot) {
    std::cerr << "warning: gnuplot not found, no plots written (scripts/setup installs it)\n";
  }
  return report;
}

}  // namespace ckptsim::cli
