#include "cli/folder/staged_folder.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "cli/folder/folder_refused.h"
#include "cli/folder/run_files.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// DIR and the temporary folder trade places; on a file system without
// RENAME_EXCHANGE, DIR moves aside under a second temporary name first.
void exchange(const fs::path& staging, const fs::path& final) {
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, final.c_str(), RENAME_EXCHANGE) == 0) return;
  const int err = errno;
  if (err != EINVAL && err != ENOSYS)
    throw std::runtime_error(
        fmt::format("{}: cannot put {} in its place: {}", final.string(), staging.string(), errno_text(err)));
  const fs::path aside = staging.string() + ".0";
  fs::rename(final, aside);
  fs::rename(staging, final);
  fs::rename(aside, staging);
}

// Removes a set of run files, its records (run.json, grid.json) last: a kill
// partway leaves a folder that still shows whose files it holds, which the
// next run then recognises as a dead run's and removes (run_folder.h).
void remove_set(const fs::path& dir, std::error_code& ec) {
  if (!fs::exists(fs::symlink_status(dir, ec))) {  // DIR was new: nothing was moved aside
    ec.clear();
    return;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name == kRunRecord || name == kGridRecord) continue;
    fs::remove_all(entry.path(), ec);
    if (ec) return;
  }
  if (!ec) fs::remove_all(dir, ec);
}

// A folder of ckptsim's run files alone (run.json among them): what set_aside may replace.
bool holds_a_run(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec)) || !fs::is_regular_file(dir / kRunRecord, ec)) return false;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec) || !is_point_file(entry.path().filename().string())) return false;
  }
  return !ec;
}

}  // namespace

fs::path stopped_name(const fs::path& final) {
  const fs::path name = final.filename().empty() ? final.parent_path().filename() : final.filename();
  return final.parent_path() / (name.string() + ".stopped");
}

StagedFolder::StagedFolder(fs::path final)
    : final_(std::move(final)),
      path_(final_.parent_path() / temporary_name(final_.filename().string(), static_cast<long>(::getpid()))) {
  // Refused before anything runs, rather than after a run's whole length.
  const fs::path parent = final_.parent_path().empty() ? fs::path(".") : final_.parent_path();
  if (::access(parent.c_str(), W_OK | X_OK) != 0) {
    const int err = errno;
    throw FolderRefused(fmt::format(
        "{}: the run is written beside it, in {}, and put in its place once whole (so that a failed run "
        "keeps the earlier results), but {} is not writable ({}); make it writable, or choose an --out "
        "inside a folder you can write (e.g. --out {})",
        final_.string(), path_.filename().string(), parent.string(), errno_text(err), (final_ / "run").string()));
  }
  std::error_code ignored;
  fs::remove_all(path_, ignored);  // an earlier run of this process (the tests run many) that failed to clean up
  fs::create_directories(path_);
}

StagedFolder::~StagedFolder() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string StagedFolder::commit() {
  std::error_code ec;
  const fs::path lock = final_ / kOutputLock;
  if (fs::exists(fs::symlink_status(lock, ec)) && ::link(lock.c_str(), (path_ / kOutputLock).c_str()) != 0)
    throw std::runtime_error(fmt::format("{}: cannot carry it over: {}", lock.string(), errno_text(errno)));
  if (fs::exists(fs::symlink_status(final_, ec))) {
    exchange(path_, final_);
  } else {
    fs::rename(path_, final_);
  }
  committed_ = true;
  remove_set(path_, ec);  // the previous set, now under the temporary name
  if (!ec) return {};
  return fmt::format("{}: the previous run's files, moved aside here, could not all be removed: {}", path_.string(),
                     ec.message());
}

std::string StagedFolder::set_aside(const fs::path& aside) {
  std::error_code ec;
  if (fs::exists(fs::symlink_status(aside, ec))) {
    if (!holds_a_run(aside)) {
      return fmt::format("{} keeps its complete run; the stopped one was not kept, since {} holds files ckptsim did "
                         "not write",
                         final_.string(), aside.string());
    }
    exchange(path_, aside);
    committed_ = true;
    remove_set(path_, ec);
  } else {
    fs::rename(path_, aside);
    committed_ = true;
  }
  return fmt::format("stopped: {} keeps its complete run; the stopped run is in {}", final_.string(), aside.string());
}

}  // namespace ckptsim::cli
