#include "cli/report/plot_folder.h"

#include <fstream>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "analysis/regular_file.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/folder/summary_stability.h"

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
fs::path point_folder(const fs::path& dir, const nlohmann::json& name, bool missing_ok = false) {
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
  if (!fs::is_directory(status)) {
    if (missing_ok && !fs::exists(status)) return {};
    throw FolderRefused(fmt::format("{}: no such point folder", point.string()));
  }
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

// The checksum that run.json / grid.json record of the plot.gp ckptsim wrote
// (64-bit FNV-1a, in hex): enough to notice an edit, no security claim.
std::string checksum_of(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", hash);
}

}  // namespace

bool plot_script_is_own(const fs::path& dir, const fs::path& record) {
  const auto recorded = nlohmann::json::parse(read_text(record), nullptr, /*allow_exceptions=*/false);
  if (!recorded.is_object() || !recorded.value(kPlotChecksumKey, nlohmann::json()).is_string()) return false;
  return recorded[kPlotChecksumKey].get<std::string>() == checksum_of(read_text(dir / kPlotScript));
}

namespace {

// The script to write in `dir`: plot.gp, or plot.ckptsim.gp beside it when
// plot.gp is not known as the one ckptsim wrote (its checksum in `record`
// differs, or there is none: an older folder, or a grid whose record was
// retired): the user's file is kept, and they are told.
std::string script_for(const fs::path& dir, const fs::path& record) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / kPlotScript, ec))) return kPlotScript;
  if (plot_script_is_own(dir, record)) return kPlotScript;
  std::cerr << "note: " << printable((dir / kPlotScript).string())
            << ": edited since ckptsim wrote it, so kept; ckptsim's own script is written beside it as "
            << kOwnPlotScript << '\n';
  return kOwnPlotScript;
}

// Records in `record` (run.json, grid.json) the checksum of the plot.gp just written.
void record_checksum(const fs::path& dir, const std::string& script, const fs::path& record) {
  std::error_code ec;
  if (script != kPlotScript || !fs::is_regular_file(fs::symlink_status(record, ec))) return;
  auto j = nlohmann::ordered_json::parse(read_text(record), nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return;
  j[kPlotChecksumKey] = checksum_of(read_text(dir / kPlotScript));
  analysis::write_file_atomically(record, j.dump(2) + "\n");
}

// One run folder's plots; "" or why there is nothing to draw.
std::string draw_run(const fs::path& dir, const std::string& title) {
  analysis::RunPlotNames names = kRunPlot;
  names.script = script_for(dir, dir / kRunRecord);
  const std::string why = analysis::plot_run(dir, title, names);
  record_checksum(dir, names.script, dir / kRunRecord);
  return why;
}

}  // namespace

GridIndex read_grid_index(const fs::path& dir, bool missing_ok) {
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
  GridIndex grid{index["title"].get<std::string>(), {}, {}};
  for (const auto& name : index["points"]) {
    fs::path point = point_folder(dir, name, missing_ok);
    if (point.empty()) {
      grid.missing.push_back(name.get<std::string>());
    } else {
      grid.points.push_back(std::move(point));
    }
  }
  return grid;
}

void plot_folder(const fs::path& dir, const std::string& run_title, bool missing_ok, const fs::path& shown) {
  if (fs::exists(dir / kProgressCsv)) {
    const std::string why =
        draw_run(dir, run_title.empty() ? fs::absolute(dir).lexically_normal().filename().string() : run_title);
    if (!why.empty()) warn_not_drawn(shown.empty() ? dir : shown, why);
    return;
  }
  const auto [title, points, missing] = read_grid_index(dir, missing_ok);  // all checked before any is drawn
  (void)missing;  // left out of the plots (`ckptsim report` names them)
  std::vector<analysis::PlotSeries> series;
  for (const fs::path& point : points) {
    const std::string name = point.filename().string();
    const std::string why = draw_run(point, title + ": " + name);
    if (!why.empty()) {
      warn_not_drawn(point, why + "; left out of the grid's plots");
      continue;
    }
    series.push_back({name, point / kProgressCsv, stability_of(point)});
  }
  analysis::GridPlotNames names = kGridPlot;
  names.script = script_for(dir, dir / kGridRecord);
  analysis::plot_grid(dir, series, title, names);
  record_checksum(dir, names.script, dir / kGridRecord);
}

}  // namespace ckptsim::cli
