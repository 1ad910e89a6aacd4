#include "cli/folder/run_folder.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/regular_file.h"
#include "cli/folder/index_mark.h"
#include "cli/folder/output_lock.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/staged_folder.h"
#include "cli/folder/summary_stability.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

// A record's text, "" for what is not a regular file (a FIFO's open would block).
std::string read_text(const fs::path& path) {
  const auto head = analysis::read_regular_file(path, 64 << 20);  // far more than a record ckptsim writes
  return head && !head->cut ? head->text : std::string();
}

namespace {

// A plain file, not a symbolic link (which may name anything, anywhere).
bool is_plain_file(const fs::directory_entry& entry) {
  std::error_code ec;
  return fs::is_regular_file(entry.symlink_status(ec));
}

bool is_plain_folder(const fs::directory_entry& entry) {
  std::error_code ec;
  return fs::is_directory(entry.symlink_status(ec));
}

// The record a run writes first: run.json, an object with ckptsim's version.
bool has_run_record(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / kRunRecord, ec))) return false;
  const auto record = nlohmann::json::parse(read_text(dir / kRunRecord), nullptr, /*allow_exceptions=*/false);
  return record.is_object() && record.contains("ckptsim_version");
}

// grid.json as plot_folder reads it: a title and the points.
bool has_grid_record(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir / kGridRecord, ec))) return false;
  const auto index = nlohmann::json::parse(read_text(dir / kGridRecord), nullptr, /*allow_exceptions=*/false);
  return index.is_object() && index.value("title", nlohmann::json()).is_string() &&
         index.value("points", nlohmann::json()).is_array();
}

// A folder holding a point's run.json and nothing but a point's files (and
// temporaries). Its run.json may hold other settings, or be damaged: the
// point is then run again.
bool is_point_folder(const fs::path& dir) {
  std::error_code ec;
  bool has_record = false;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!is_plain_file(entry) || !is_point_file(entry.path().filename().string())) return false;
    has_record = has_record || entry.path().filename() == kRunRecord;
  }
  return !ec && has_record;
}

void remove_file(const fs::path& path) {
  std::error_code ec;
  fs::remove(path, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot remove it: {}", path.string(), ec.message()));
}

// A temporary of ckptsim's naming pattern that no running process will finish:
// its pid is gone (a run killed with SIGKILL), or is ours (an earlier run of
// this process that failed before it could clean up).
bool is_left_behind(const std::string& name) {
  const auto pid = temporary_pid(name);
  return pid && is_own_temporary(name) && (*pid == static_cast<long>(::getpid()) || !process_alive(*pid));
}

// What dead runs left in `dir` (AtomicFile's temporaries, gnuplot's images).
void remove_temporaries(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (is_plain_file(entry) && is_left_behind(entry.path().filename().string())) remove_file(entry.path());
  }
}

// Whether run.json holds `record`, the plots' checksum aside (cli/report/plot_folder.h adds it when it draws), and
// where the scenario file lies: a point is kept for its settings, wherever the file that gave them is now.
bool same_record(const std::string& text, const std::string& record) {
  auto recorded = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto ours = nlohmann::json::parse(record);
  if (!recorded.is_object()) return false;
  recorded.erase(kPlotChecksumKey);
  recorded.erase(kScenarioFileKey);
  ours.erase(kScenarioFileKey);
  return recorded == ours;
}

}  // namespace

bool is_index_folder(const fs::path& dir) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (is_plain_folder(*it)) continue;
    if (!is_plain_file(*it)) return false;
    if (!is_temporary_name(name) && !(it->path().extension() == kPageExtension && is_ckptsim_index(it->path())))
      return false;
  }
  return !ec;
}

void warn_if_any(const std::string& warning) {
  if (!warning.empty()) std::cerr << "warning: " << printable(warning) << '\n';
}

PointPlace point_place(const scenarios::GridPoint& point, const std::string& warmup_shared_with) {
  PointPlace place{.repeat = point.repeat,
                   .repeat_of = point.base_name,
                   .warmup_shared_with = warmup_shared_with,
                   .reloaded_after_warmup = nullptr};
  if (point.warmup_host) {
    const scenarios::json& own = point.scenario.resolved.at("postgres");
    const scenarios::json& warm = point.warmup_host->resolved.at("postgres");
    for (const auto& [key, value] : own.items())
      if (!warm.contains(key) || warm.at(key) != value) place.reloaded_after_warmup[key] = value;
  }
  return place;
}

std::string run_record(const scenarios::Scenario& scenario, double threshold, std::optional<sim::Duration> crash_at,
                       const std::optional<ChainPlace>& chain, const std::string& scenario_file,
                       const PointPlace& place) {
  nlohmann::ordered_json record = {{"ckptsim_version", CKPTSIM_VERSION}};
  if (!scenario_file.empty()) record[kScenarioFileKey] = scenario_file;
  record["threshold"] = threshold;
  if (crash_at) record["crash_at_s"] = sim::to_seconds(*crash_at);
  if (chain) {
    record["chain"] = {{"position", chain->position}, {"of", chain->of}};
    if (!chain->after.empty()) record["chain"]["after"] = chain->after;
  }
  if (place.repeat > 0) {
    record["repeat"] = place.repeat;
    record["repeat_of"] = place.repeat_of;
  }
  if (!place.warmup_shared_with.empty()) record["warmup_shared_with"] = place.warmup_shared_with;
  if (!place.reloaded_after_warmup.is_null()) record["reloaded_after_warmup"] = place.reloaded_after_warmup;
  record["settings"] = scenario.resolved;
  return record.dump(2) + "\n";
}

std::optional<KeptPoint> complete_run(const fs::path& dir, const std::string& record) {
  if (!same_record(read_text(dir / kRunRecord), record)) return std::nullopt;
  return finished_run(dir);
}

std::optional<KeptPoint> finished_run(const fs::path& dir) {
  for (const std::string& name : always_written()) {
    if (!fs::is_regular_file(dir / name)) return std::nullopt;
  }
  try {
    const auto summary = nlohmann::json::parse(read_text(dir / kSummaryJson));
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

namespace {

// What an output folder holds, sorted by who wrote it. ckptsim's names count
// as ckptsim's only beside a record of its own (run.json, grid.json, or a
// point folder's run.json): a pgbench.log or an index.html that a user put in
// a folder of their own is theirs, whatever its name.
struct FolderContents {
  std::vector<fs::path> files, point_dirs, index_dirs, foreign;
};

bool is_dead_staging(const fs::path& dir);
bool holds_only_ckptsims(const fs::path& dir);

FolderContents sort_contents(const fs::path& dir) {
  FolderContents c;
  bool has_record = has_run_record(dir) || has_grid_record(dir);
  for (const auto& entry : fs::directory_iterator(dir))
    has_record = has_record || (is_plain_folder(entry) && is_point_folder(entry.path()));
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == kOutputLock && is_plain_file(entry)) continue;  // OutputLock's
    // A running ckptsim's (a share of the grid): its temporary name's pid is alive and is ckptsim.
    const auto pid = temporary_pid(name);
    const bool ckptsim_runs = pid && is_ckptsim_process(*pid);
    // A file another such share is writing (its grid.json before it is linked): theirs until they finish.
    if (is_plain_file(entry) && is_own_temporary(name) && ckptsim_runs && *pid != static_cast<long>(::getpid()))
      continue;
    // A record another share linked after has_record was worked out.
    if (!has_record && is_plain_file(entry) &&
        ((name == kGridRecord && has_grid_record(dir)) || (name == kRunRecord && has_run_record(dir))))
      has_record = true;
    if (is_plain_file(entry) && name == kIndexHtml && is_ckptsim_index(entry.path())) {
      c.files.push_back(entry.path());
    } else if (has_record && is_plain_file(entry) && name != kIndexHtml &&
               (is_point_file(name) || is_grid_file(name))) {
      c.files.push_back(entry.path());
    } else if (is_plain_folder(entry) && ckptsim_runs) {
      continue;  // a point that another share of the grid is running (cli/commands/grid_shares.h)
    } else if (is_plain_folder(entry) && (is_point_folder(entry.path()) || is_dead_staging(entry.path()))) {
      c.point_dirs.push_back(entry.path());
    } else if (is_plain_folder(entry) && name == kIndexFolder && is_index_folder(entry.path())) {
      c.index_dirs.push_back(entry.path());
    } else {
      c.foreign.push_back(entry.path().filename());
    }
  }
  return c;
}

// A folder a dead run staged (staged_folder.h): named NAME.tmp.<pid> for a pid
// no longer alive, holding ckptsim's outputs (a run's files, or the earlier
// set it had moved aside) and temporaries.
bool is_dead_staging(const fs::path& dir) {
  const auto pid = temporary_pid(dir.filename().string());
  std::error_code ec;
  if (!pid || process_alive(*pid) || !fs::is_directory(fs::symlink_status(dir, ec))) return false;
  return holds_only_ckptsims(dir);
}

// Nothing in `dir` but ckptsim's outputs and the temporaries of its own files:
// a user's folder that happens to be named like a staging one (thesis.tmp.5) is theirs.
bool holds_only_ckptsims(const fs::path& dir) {
  const std::vector<fs::path> foreign = sort_contents(dir).foreign;
  return std::all_of(foreign.begin(), foreign.end(), [](const fs::path& name) { return is_own_temporary(name); });
}

// Removes the folders that dead runs staged in `parent`: named STEM.tmp.<pid>,
// or any name when `stem` is empty. Returns a warning for one that could not
// be removed, or "".
std::string remove_dead_staging(const fs::path& parent, const std::string& stem = "") {
  std::error_code ec;
  std::string warning;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    const auto pid = temporary_pid(name);
    if (!pid || (!stem.empty() && name != temporary_name(stem, *pid)) || !is_dead_staging(entry.path())) continue;
    fs::remove_all(entry.path(), ec);
    if (ec) warning = fmt::format("{}: a killed run's folder could not be removed: {}", name, ec.message());
  }
  return warning;
}

void refuse_foreign(const std::string& shown, std::vector<fs::path> foreign, const std::string& remedy = kRunRemedy) {
  if (foreign.empty()) return;
  std::sort(foreign.begin(), foreign.end());
  std::string names;
  for (std::size_t i = 0; i < std::min<std::size_t>(foreign.size(), 3); ++i)
    names += fmt::format("{}\"{}\"", i ? ", " : "", foreign[i].string());
  if (foreign.size() > 3) names += fmt::format(" and {} more", foreign.size() - 3);
  throw FolderRefused(fmt::format("{}: holds {} that ckptsim did not write; {}", shown, names, remedy));
}

// Makes dir and its parents. One that cannot be made (a file named `out` in
// the working folder, where the default --out goes) is a refused folder, told plainly.
void make_output_folder(const fs::path& dir, const std::string& shown) {
  std::error_code ec;
  for (fs::path above = dir.parent_path(); above.has_relative_path(); above = above.parent_path()) {
    if (fs::exists(fs::symlink_status(above, ec)) && !fs::is_directory(fs::status(above, ec)))
      throw FolderRefused(fmt::format("{}: cannot be made: {} exists and is not a folder", shown, above.string()));
  }
  fs::create_directories(dir, ec);
  if (ec) throw FolderRefused(fmt::format("{}: cannot be made: {}", shown, ec.message()));
}

}  // namespace

std::string scenario_file_from(const fs::path& out, const fs::path& scenario_file) {
  std::error_code ec;
  fs::path base = fs::weakly_canonical(fs::absolute(out), ec);
  if (ec) base = fs::absolute(out).lexically_normal();
  return scenario_file.lexically_relative(base).generic_string();
}

void refuse_other_scenario(const fs::path& out, const fs::path& scenario_file) {
  std::vector<fs::path> records = {out / kRunRecord, out / kGridRecord};
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(out, ec))
    if (is_plain_folder(entry)) records.push_back(entry.path() / kRunRecord);
  const std::string ours = scenario_file_from(out, scenario_file);
  for (const fs::path& record : records) {
    if (!fs::is_regular_file(fs::symlink_status(record, ec))) continue;
    const auto j = nlohmann::json::parse(read_text(record), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.value("scenario_file", nlohmann::json()).is_string()) continue;
    const fs::path from = j["scenario_file"].get<std::string>();
    // An earlier release recorded the absolute path.
    if (from.is_absolute() ? from == scenario_file : from.generic_string() == ours) continue;
    const fs::path where = from.is_absolute() ? from : (fs::absolute(out) / from).lexically_normal();
    throw FolderRefused(fmt::format(
        "{}: holds a run of another scenario file, {} ({} names it), not of {}; choose a folder for this one "
        "with --out, e.g. --out {}-2",
        out.string(), where.string(), record.lexically_relative(out).string(), scenario_file.string(), out.string()));
  }
}

ClaimedOutput claim_output(const fs::path& out, bool lock, const std::string& remedy) {
  // "d/new/.." is d: the folder is checked where the kernel will resolve it.
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(out), ec);
  if (ec) dir = fs::absolute(out).lexically_normal();
  if (!dir.has_filename() && dir != dir.root_path()) dir = dir.parent_path();  // "d/" from "d/new/.."
  const std::string shown =
      out.string() +
      (out.lexically_normal() == out && !out.string().empty() ? std::string() : fmt::format(" ({})", dir.string()));
  const fs::file_status status = fs::symlink_status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(fs::status(dir, ec)))
    throw FolderRefused(fmt::format("{}: exists and is not a folder", shown));
  if (fs::exists(status)) refuse_foreign(shown, sort_contents(dir).foreign, remedy);
  make_output_folder(dir, shown);
  ClaimedOutput claimed{.dir = dir, .lock = lock ? std::make_unique<OutputLock>(dir, shown) : nullptr};
  return claimed;
}

std::vector<std::optional<KeptPoint>> prepare_output(const fs::path& out, const std::vector<std::string>& point_names,
                                                     const std::vector<std::string>& records, bool grid) {
  std::vector<std::optional<KeptPoint>> kept(point_names.size());
  if (!fs::exists(out)) {
    fs::create_directories(out);
    return kept;
  }
  if (!fs::is_directory(out)) throw FolderRefused(fmt::format("{}: exists and is not a folder", out.string()));
  warn_if_any(remove_dead_staging(out.parent_path(), out.filename().string()));
  if (grid) warn_if_any(remove_dead_staging(out));  // its points' temporary folders
  auto [files, point_dirs, index_dirs, foreign] = sort_contents(out);
  refuse_foreign(out.string(), foreign);
  // A single run replaces the folder as a whole when it is done (staged_folder.h);
  // a grid replaces each point as it is done, and the rest when all are.
  if (!grid) return kept;
  remove_temporaries(out);
  for (const fs::path& dir : point_dirs) {
    const auto at = std::find(point_names.begin(), point_names.end(), dir.filename().string());
    if (at == point_names.end()) continue;  // another grid's point: removed once this grid is done
    const std::size_t i = static_cast<std::size_t>(at - point_names.begin());
    kept[i] = complete_run(dir, records[i]);
    remove_temporaries(dir);
  }
  return kept;
}

void remove_left_behind(const fs::path& out) {
  remove_temporaries(out);
  for (const fs::path& dir : sort_contents(out).point_dirs) remove_temporaries(dir);
}

void finish_grid_output(const fs::path& out, const std::vector<std::string>& point_names) {
  auto [files, point_dirs, index_dirs, foreign] = sort_contents(out);
  for (const fs::path& file : files) {
    if (!is_grid_file(file.filename().string())) remove_file(file);  // an earlier single run's
  }
  for (const fs::path& dir : point_dirs) {
    if (std::find(point_names.begin(), point_names.end(), dir.filename().string()) == point_names.end())
      fs::remove_all(dir);
  }
}

}  // namespace ckptsim::cli
