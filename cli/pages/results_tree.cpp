#include "cli/pages/results_tree.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "analysis/csv.h"
#include "analysis/regular_file.h"
#include "cli/folder/run_files.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

// More than ckptsim writes: a longer file is not one of its own.
constexpr std::size_t kMaxHeaderBytes = 1 << 20;
constexpr std::size_t kMaxJsonBytes = 64 << 20;

std::string id_of(const fs::path& dir) { return dir == "." ? std::string(".") : dir.generic_string(); }

// summary.csv's header up to the first stability column (or "repeat", which follows the grid paths).
std::vector<std::string> grid_paths_of(const fs::path& grid_dir) {
  const auto head = analysis::read_regular_file(grid_dir / kSummaryCsv, kMaxHeaderBytes);
  const std::string text = head ? head->text : std::string();
  const std::string header = text.substr(0, text.find('\n'));
  std::vector<std::string> paths;
  std::size_t at = 0;
  while (at <= header.size()) {
    const std::size_t comma = std::min(header.find(',', at), header.size());
    const std::string column = header.substr(at, comma - at);
    if (column == "tps_mean" || column == "repeat" || column.empty()) break;
    paths.push_back(column);
    at = comma + 1;
  }
  return paths;
}

// The tps series and the worst per-interval p99 of a run folder's progress.csv.
void read_progress(const fs::path& dir, RunEntry& run) {
  const fs::path csv = dir / kProgressCsv;
  if (!analysis::is_readable_regular_file(csv)) return;
  try {
    const analysis::CsvTable table = analysis::read_csv(csv);
    run.tps = analysis::read_tps_series(csv);
    const int time = table.column("time_s"), p99 = table.column("latency_p99_ms");
    if (table.rows.size() >= 2 && time >= 0 && run.tps.size() > 0)
      run.interval_s =
          std::stod(table.rows.back()[static_cast<std::size_t>(time)]) / static_cast<double>(run.tps.size());
    if (p99 < 0) return;
    for (const auto& row : table.rows) {
      const double v = std::stod(row[static_cast<std::size_t>(p99)]);
      run.worst_p99_ms = std::max(run.worst_p99_ms.value_or(v), v);
    }
  } catch (const std::exception&) {
    run.tps.clear();  // an unreadable series is left out, as an unreadable summary is
    run.worst_p99_ms.reset();
  }
}

void walk(const fs::path& root, const fs::path& relative, ResultsTree& tree) {
  const fs::path dir = root / relative;
  if (fs::is_regular_file(dir / kRunRecord)) {
    tree.runs.push_back({.dir = relative,
                         .record = read_json_file(dir / kRunRecord),
                         .summary = read_json_file(dir / kSummaryJson),
                         .tps = {},
                         .interval_s = 1,
                         .worst_p99_ms = std::nullopt,
                         .grid = std::nullopt,
                         .point = ""});
    read_progress(dir, tree.runs.back());
    return;  // a run folder holds no other run
  }
  if (fs::is_regular_file(dir / kGridRecord)) {
    const nlohmann::json index = read_json_file(dir / kGridRecord);
    GridEntry grid{.dir = relative,
                   .title = relative.filename().string(),
                   .grid_paths = grid_paths_of(dir),
                   .points = {},
                   .runs = {}};
    if (index.is_object() && index.value("title", nlohmann::json()).is_string()) grid.title = index["title"];
    grid.chained = index.is_object() && index.contains("chain");
    tree.grids.push_back(std::move(grid));
  }
  std::vector<fs::path> children;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // A run's staging folder (DIR.tmp.<pid>, cli/folder/staged_folder.h) is not a result: running, it is half
    // written; left by a killed run, it is the next run's to remove.
    if (entry.is_directory() && !entry.is_symlink() && !name.starts_with(".") && name != kIndexFolder &&
        !is_temporary_name(name))
      children.push_back(relative / name);
  }
  std::sort(children.begin(), children.end());
  for (const fs::path& child : children) walk(root, child.lexically_normal(), tree);
}

}  // namespace

std::string RunEntry::id() const { return id_of(dir); }
std::string GridEntry::id() const { return id_of(dir); }

bool RunEntry::complete() const { return summary.is_object() && summary.value("complete", false) == true; }

nlohmann::json read_json_file(const fs::path& path) {
  const auto head = analysis::read_regular_file(path, kMaxJsonBytes);
  if (!head || head->cut) return nullptr;
  nlohmann::json value = nlohmann::json::parse(head->text, nullptr, /*allow_exceptions=*/false);
  return value.is_discarded() ? nlohmann::json() : value;
}

ResultsTree scan_results(const fs::path& root) {
  if (!fs::is_directory(root)) throw std::runtime_error(fmt::format("{}: not a folder", root.string()));
  ResultsTree tree{.root = root, .runs = {}, .grids = {}};
  walk(root, ".", tree);
  std::map<std::string, std::size_t> run_at;
  for (std::size_t i = 0; i < tree.runs.size(); ++i) run_at[tree.runs[i].id()] = i;
  for (std::size_t g = 0; g < tree.grids.size(); ++g) {
    GridEntry& grid = tree.grids[g];
    const nlohmann::json index = read_json_file(root / grid.dir / kGridRecord);
    if (!index.is_object() || !index.value("points", nlohmann::json()).is_array()) continue;
    for (const auto& name : index["points"]) {
      if (!name.is_string()) continue;
      grid.points.push_back(name.get<std::string>());
      const auto at = run_at.find(id_of((grid.dir / name.get<std::string>()).lexically_normal()));
      if (at == run_at.end()) continue;
      grid.runs.push_back(at->second);
      tree.runs[at->second].grid = g;
      tree.runs[at->second].point = name.get<std::string>();
    }
  }
  return tree;
}

}  // namespace ckptsim::cli
