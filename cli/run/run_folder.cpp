#include "cli/run/run_folder.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/regular_file.h"
#include "cli/run/index_mark.h"
#include "cli/run/run_files.h"
#include "cli/run/run_summary.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

// A record's text, "" for what is not a regular file (a FIFO's open would block).
std::string read_text(const fs::path& path) {
  const auto head = analysis::read_regular_file(path, 64 << 20);  // far more than a record ckptsim writes
  return head && !head->cut ? head->text : std::string();
}

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

// The results index's own folder (cli/pages/index_layout.h): its own pages
// (generator-marked) and their temporaries only, no symbolic link.
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

std::string run_record(const scenarios::Scenario& scenario, double threshold, std::optional<sim::Duration> crash_at,
                       const std::optional<ChainPlace>& chain) {
  nlohmann::ordered_json record = {{"ckptsim_version", CKPTSIM_VERSION}, {"threshold", threshold}};
  if (crash_at) record["crash_at_s"] = sim::to_seconds(*crash_at);
  if (chain) {
    record["chain"] = {{"position", chain->position}, {"of", chain->of}};
    if (!chain->after.empty()) record["chain"]["after"] = chain->after;
  }
  record["settings"] = scenario.resolved;
  return record.dump(2) + "\n";
}

std::optional<KeptPoint> complete_run(const fs::path& dir, const std::string& record) {
  for (const std::string& name : always_written()) {
    if (!fs::is_regular_file(dir / name)) return std::nullopt;
  }
  if (read_text(dir / kRunRecord) != record) return std::nullopt;
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

FolderContents sort_contents(const fs::path& dir) {
  FolderContents c;
  bool has_record = has_run_record(dir) || has_grid_record(dir);
  for (const auto& entry : fs::directory_iterator(dir))
    has_record = has_record || (is_plain_folder(entry) && is_point_folder(entry.path()));
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name == kOutputLock && is_plain_file(entry)) continue;  // OutputLock's
    if (is_plain_file(entry) && name == kIndexHtml && is_ckptsim_index(entry.path())) {
      c.files.push_back(entry.path());
    } else if (has_record && is_plain_file(entry) && name != kIndexHtml &&
               (is_point_file(name) || is_grid_file(name))) {
      c.files.push_back(entry.path());
    } else if (is_plain_folder(entry) && is_point_folder(entry.path())) {
      c.point_dirs.push_back(entry.path());
    } else if (is_plain_folder(entry) && name == kIndexFolder && is_index_folder(entry.path())) {
      c.index_dirs.push_back(entry.path());
    } else {
      c.foreign.push_back(entry.path().filename());
    }
  }
  return c;
}

void refuse_foreign(const std::string& shown, std::vector<fs::path> foreign) {
  if (foreign.empty()) return;
  std::sort(foreign.begin(), foreign.end());
  std::string names;
  for (std::size_t i = 0; i < std::min<std::size_t>(foreign.size(), 3); ++i)
    names += fmt::format("{}\"{}\"", i ? ", " : "", foreign[i].string());
  if (foreign.size() > 3) names += fmt::format(" and {} more", foreign.size() - 3);
  throw FolderRefused(fmt::format(
      "{}: holds {} that ckptsim did not write; a run replaces only ckptsim's own outputs, so choose another "
      "--out or move them away",
      shown, names));
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

ClaimedOutput claim_output(const fs::path& out) {
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
  if (fs::exists(status)) refuse_foreign(shown, sort_contents(dir).foreign);
  make_output_folder(dir, shown);
  ClaimedOutput claimed{.dir = dir, .lock = std::make_unique<OutputLock>(dir, shown)};
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
  auto [files, point_dirs, index_dirs, foreign] = sort_contents(out);
  refuse_foreign(out.string(), foreign);

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
