#include "cli/run/plot_folder.h"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "analysis/regular_file.h"
#include "cli/run/folder_refused.h"
#include "cli/run/printable.h"
#include "cli/run/run_files.h"
#include "cli/run/run_summary.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

constexpr std::size_t kMaxRecordBytes = 64 << 20;  // far more than ckptsim writes

std::optional<analysis::Stability> stability_of(const fs::path& run_dir) {
  const auto head = analysis::read_regular_file(run_dir / kSummaryJson, kMaxRecordBytes);  // never a FIFO
  if (!head) return std::nullopt;
  const auto summary = nlohmann::json::parse(head->text, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object() || !summary.contains("stability")) return std::nullopt;
  try {
    return stability_from_json(summary["stability"]);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

// A point of grid.json as a folder directly under the grid's: one plain name,
// as run makes them (no "..", no absolute path, no separator), and a real
// folder, not a symbolic link to one elsewhere. Anything else is refused, so
// that plot never writes outside DIR.
fs::path point_folder(const fs::path& dir, const nlohmann::json& name) {
  const fs::path index = dir / kGridRecord;
  if (!name.is_string()) throw FolderRefused(fmt::format("{}: a point name is not a string", index.string()));
  const std::string text = name.get<std::string>();
  if (text.empty() || text == "." || text == ".." || text.find_first_of(std::string("/\0", 2)) != std::string::npos)
    throw FolderRefused(
        fmt::format("{}: point \"{}\" is not a folder name (expected one name, without \"/\", "
                    "\"..\" or an absolute path, as run writes them)",
                    index.string(), text));
  const fs::path point = dir / text;
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(point, ec);
  if (fs::is_symlink(status))
    throw FolderRefused(fmt::format("{}: is a symbolic link, not the point folder run wrote", point.string()));
  if (!fs::is_directory(status)) throw FolderRefused(fmt::format("{}: no such point folder", point.string()));
  return point;
}

// What the plots read and draw, by the run folder's names.
const analysis::RunPlotNames kRunPlot = {.script = kPlotScript,
                                         .progress = kProgressCsv,
                                         .system = kSystemCsv,
                                         .waits = kWaitsCsv,
                                         .checkpoints = kCheckpointsCsv,
                                         .tps_png = kTpsPng,
                                         .tps_svg = kTpsSvg,
                                         .system_png = kSystemPng};
const analysis::GridPlotNames kGridPlot = {.script = kPlotScript,
                                           .checkpoints = kCheckpointsCsv,
                                           .overlay_png = kOverlayPng,
                                           .overlay_svg = kOverlaySvg,
                                           .grid_png = kGridPng,
                                           .stability_png = kStabilityPng};

void warn_not_drawn(const fs::path& dir, const std::string& why) {
  std::cerr << "warning: " << printable(dir.string()) << ": no plots drawn: " << printable(why) << '\n';
}

}  // namespace

void write_grid_index(const fs::path& grid_dir, const std::string& title, const std::vector<std::string>& point_names,
                      bool chained) {
  nlohmann::ordered_json index = {{"title", title}, {"points", point_names}};
  if (chained) index["chain"] = {{"order", point_names}};
  analysis::write_file_atomically(grid_dir / kGridRecord, index.dump(2) + "\n");
}

void plot_folder(const fs::path& dir, const std::string& run_title) {
  if (fs::exists(dir / kProgressCsv)) {
    const std::string why = analysis::plot_run(
        dir, run_title.empty() ? fs::absolute(dir).lexically_normal().filename().string() : run_title, kRunPlot);
    if (!why.empty()) warn_not_drawn(dir, why);
    return;
  }
  const auto head = analysis::read_regular_file(dir / kGridRecord, kMaxRecordBytes);  // never a FIFO
  if (!head) {
    throw FolderRefused(
        fmt::format("{}: neither a run folder ({}) nor a grid folder ({})", dir.string(), kProgressCsv, kGridRecord));
  }
  const auto index = nlohmann::json::parse(head->text, nullptr, /*allow_exceptions=*/false);
  if (!index.is_object() || !index.contains("points") || !index["points"].is_array() ||
      !index.value("title", nlohmann::json()).is_string()) {
    throw FolderRefused(fmt::format("{}: not a grid index ckptsim wrote", (dir / kGridRecord).string()));
  }
  const std::string title = index["title"].get<std::string>();
  std::vector<fs::path> points;
  for (const auto& name : index["points"])
    points.push_back(point_folder(dir, name));  // all checked before any is drawn
  std::vector<analysis::PlotSeries> series;
  for (const fs::path& point : points) {
    const std::string name = point.filename().string();
    const std::string why = analysis::plot_run(point, title + ": " + name, kRunPlot);
    if (!why.empty()) {
      warn_not_drawn(point, why + "; left out of the grid's plots");
      continue;
    }
    series.push_back({name, point / kProgressCsv, stability_of(point)});
  }
  analysis::plot_grid(dir, series, title, kGridPlot);
}

}  // namespace ckptsim::cli
