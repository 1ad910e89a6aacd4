#include "cli/report/grid_files.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/folder/index_mark.h"
#include "cli/folder/run_files.h"
#include "cli/report/plot_folder.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

// The points grid.json names, or none when it is missing or unreadable.
std::vector<std::string> recorded_points(const fs::path& out) {
  const auto index = nlohmann::json::parse(read_text(out / kGridRecord), nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> names;
  if (!index.is_object() || !index.value("points", nlohmann::json()).is_array()) return names;
  for (const auto& name : index["points"])
    if (name.is_string()) names.push_back(name.get<std::string>());
  return names;
}

void remove_plain_file(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(path, ec))) return;
  fs::remove(path, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot remove it: {}", path.string(), ec.message()));
}

}  // namespace

void retire_earlier_grid_files(const fs::path& out, const std::vector<std::string>& point_names,
                               const std::vector<std::optional<KeptPoint>>& kept) {
  const bool all_kept = std::all_of(kept.begin(), kept.end(), [](const auto& k) { return k.has_value(); });
  if (all_kept && recorded_points(out) == point_names) return;
  // The table first, grid.json last: a kill in between leaves less of the earlier set, beside earlier points only.
  for (const char* name : {kSummaryCsv, kSummaryMeanCsv, kReportTxt, kOverlayPng, kOverlaySvg, kGridPng, kStabilityPng})
    remove_plain_file(out / name);
  if (is_ckptsim_index(out / kIndexHtml)) remove_plain_file(out / kIndexHtml);
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(out / kIndexFolder, ec)) && is_index_folder(out / kIndexFolder))
    fs::remove_all(out / kIndexFolder);
  // plot.gp goes only when it is ckptsim's own; an edited one stays, and the next plot keeps it.
  if (plot_script_is_own(out, out / kGridRecord)) remove_plain_file(out / kPlotScript);
  remove_plain_file(out / kGridRecord);
}

}  // namespace ckptsim::cli
