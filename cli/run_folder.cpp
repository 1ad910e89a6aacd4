#include "cli/run_folder.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/results_tree.h"
#include "cli/run_summary.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

bool is_aggregate_log(const std::string& name) {
  static const std::regex pattern(R"(pgbench_log\.[0-9]+(\.[0-9]+)?)");
  return std::regex_match(name, pattern);
}

namespace {

// Every file that run_point, the plots and run_plan write. A test runs a grid
// and checks that nothing it leaves is missing from these lists.
const std::set<std::string, std::less<>> kPointFiles = {
    "run.json",     "progress.csv", "system.csv", "waits.csv", "io_layers.csv", "postgres.log", "checkpoints.csv", "pgbench.log",
    "summary.json", "perf.json",    "crash.json", "plot.gp",   "tps.png",       "tps.svg",
    "system.png"};
const std::set<std::string, std::less<>> kGridFiles = {"summary.csv",     "report.txt",      "plot.gp",
                                                       "grid.json",       "tps-overlay.png", "tps-overlay.svg",
                                                       "tps-grid.png",    "stability.png",
                                                       "index.html"};
// What a complete run always has (pgbench_log.PID[.N] only with --aggregate-interval).
const std::vector<std::string> kAlwaysWritten = {"run.json",     "progress.csv",    "system.csv",
                                                 "waits.csv",    "io_layers.csv",   "postgres.log",
                                                 "perf.json",    "checkpoints.csv", "pgbench.log",
                                                 "summary.json"};

bool is_point_file(const std::string& name) {
  return kPointFiles.contains(name) || is_aggregate_log(name) || is_temporary_name(name);
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder holding nothing but one point's files (and temporaries).
bool is_point_folder(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || !is_point_file(entry.path().filename().string())) return false;
  }
  return !ec;
}

// The results index's _index/ folder (cli/index_layout.h): pages and their temporaries only.
bool is_index_folder(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_directory() && !(it->is_regular_file() && (it->path().extension() == ".html" || is_temporary_name(name))))
      return false;
  }
  return !ec;
}

void remove_file(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot remove it: {}", path.string(), ec.message()));
}

void empty_point_folder(const fs::path& dir, bool keep_results) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (!keep_results || is_temporary_name(name)) remove_file(entry.path());
  }
}

}  // namespace

bool is_temporary_name(const std::string& name) {
  // AtomicFile: ".tmp.<pid>.<n>"; the plots' gnuplot outputs: ".tmp.<pid>".
  static const std::regex pattern(R"(.+\.tmp\.[0-9]+(\.[0-9]+)?)");
  return std::regex_match(name, pattern);
}

std::string run_record(const scenarios::Scenario& scenario, double threshold, std::optional<sim::Duration> crash_at) {
  nlohmann::ordered_json record = {{"ckptsim_version", CKPTSIM_VERSION}, {"threshold", threshold}};
  if (crash_at) record["crash_at_s"] = sim::to_seconds(*crash_at);
  record["settings"] = scenario.resolved;
  return record.dump(2) + "\n";
}

std::optional<KeptPoint> complete_run(const fs::path& dir, const std::string& record) {
  for (const std::string& name : kAlwaysWritten) {
    if (!fs::is_regular_file(dir / name)) return std::nullopt;
  }
  if (read_text(dir / "run.json") != record) return std::nullopt;
  try {
    const auto summary = nlohmann::json::parse(read_text(dir / "summary.json"));
    if (summary.value("complete", false) != true) return std::nullopt;
    KeptPoint kept;
    kept.stability = stability_from_json(summary.at("stability"));
    kept.events = summary.at("sim").at("events").get<std::int64_t>();
    kept.simulated_seconds = summary.at("sim").at("simulated_seconds").get<double>();
    return kept;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable: not a complete run, so it is run again
  }
}

std::vector<std::optional<KeptPoint>> prepare_output(const fs::path& out, const std::vector<std::string>& point_names,
                                                     const std::vector<std::string>& records, bool grid) {
  std::vector<std::optional<KeptPoint>> kept(point_names.size());
  if (!fs::exists(out)) {
    fs::create_directories(out);
    return kept;
  }
  if (!fs::is_directory(out)) throw FolderRefused(fmt::format("{}: exists and is not a folder", out.string()));

  std::vector<fs::path> files, point_dirs, index_dirs, foreign;
  for (const auto& entry : fs::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && (is_point_file(name) || kGridFiles.contains(name))) {
      files.push_back(entry.path());
    } else if (entry.is_directory() && !entry.is_symlink() && is_point_folder(entry.path())) {
      point_dirs.push_back(entry.path());
    } else if (entry.is_directory() && !entry.is_symlink() && name == kIndexFolder && is_index_folder(entry.path())) {
      index_dirs.push_back(entry.path());
    } else {
      foreign.push_back(entry.path().filename());
    }
  }
  if (!foreign.empty()) {
    std::sort(foreign.begin(), foreign.end());
    std::string names;
    for (std::size_t i = 0; i < std::min<std::size_t>(foreign.size(), 3); ++i)
      names += fmt::format("{}\"{}\"", i ? ", " : "", foreign[i].string());
    if (foreign.size() > 3) names += fmt::format(" and {} more", foreign.size() - 3);
    throw FolderRefused(fmt::format(
        "{}: holds {} that ckptsim did not write; a run replaces only ckptsim's own outputs, so choose another "
        "--out or move them away",
        out.string(), names));
  }

  for (const fs::path& file : files) remove_file(file);
  for (const fs::path& dir : index_dirs) fs::remove_all(dir);
  for (const fs::path& dir : point_dirs) {
    const auto at = std::find(point_names.begin(), point_names.end(), dir.filename().string());
    const std::size_t i = static_cast<std::size_t>(at - point_names.begin());
    if (grid && at != point_names.end()) kept[i] = complete_run(dir, records[i]);
    const bool keep = grid && at != point_names.end() && kept[i].has_value();
    empty_point_folder(dir, keep);
    if (!keep && (!grid || at == point_names.end())) fs::remove(dir);  // a point of another grid
  }
  return kept;
}

}  // namespace ckptsim::cli
