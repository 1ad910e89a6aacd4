#include "cli/plot_folder.h"

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "cli/run_summary.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

std::optional<analysis::Stability> stability_of(const fs::path& run_dir) {
  std::ifstream in(run_dir / "summary.json");
  const auto summary = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!summary.is_object() || !summary.contains("stability")) return std::nullopt;
  try {
    return stability_from_json(summary["stability"]);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void write_grid_index(const fs::path& grid_dir, const std::string& title, const std::vector<std::string>& point_names) {
  const nlohmann::ordered_json index = {{"title", title}, {"points", point_names}};
  analysis::write_file_atomically(grid_dir / "grid.json", index.dump(2) + "\n");
}

void plot_folder(const fs::path& dir, const std::string& run_title) {
  if (fs::exists(dir / "progress.csv")) {
    analysis::plot_run(dir, run_title.empty() ? fs::absolute(dir).lexically_normal().filename().string() : run_title);
    return;
  }
  std::ifstream in(dir / "grid.json");
  if (!in) {
    throw std::runtime_error(
        fmt::format("{}: neither a run folder (progress.csv) nor a grid folder (grid.json)", dir.string()));
  }
  const auto index = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!index.is_object() || !index.contains("points") || !index["points"].is_array() ||
      !index.value("title", nlohmann::json()).is_string()) {
    throw std::runtime_error(fmt::format("{}: not a grid index ckptsim wrote", (dir / "grid.json").string()));
  }
  const std::string title = index["title"].get<std::string>();
  std::vector<analysis::PlotSeries> series;
  for (const auto& name : index["points"]) {
    if (!name.is_string()) throw std::runtime_error(fmt::format("{}: a point name is not a string", (dir / "grid.json").string()));
    const fs::path point = dir / name.get<std::string>();
    analysis::plot_run(point, title + ": " + name.get<std::string>());
    series.push_back({name.get<std::string>(), point / "progress.csv", stability_of(point)});
  }
  analysis::plot_grid(dir, series, title);
}

}  // namespace ckptsim::cli
