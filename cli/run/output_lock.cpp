#include "cli/run/output_lock.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "analysis/regular_file.h"
#include "cli/run/folder_refused.h"
#include "cli/run/run_files.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using run_files::kOutputLock;

namespace {

// The pid a lock file names, or 0 when it names none.
long holder_of(const fs::path& lock) {
  const auto head = analysis::read_regular_file(lock, 64);
  long pid = 0;
  if (head) std::from_chars(head->text.data(), head->text.data() + head->text.size(), pid);
  return pid;
}

bool is_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

// Links a file holding our pid to `lock`; false if `lock` exists.
bool try_take(const fs::path& lock) {
  const fs::path temp = lock.parent_path() / run_files::temporary_name(kOutputLock, static_cast<long>(::getpid()));
  analysis::write_file_atomically(temp, fmt::format("{}\n", static_cast<long>(::getpid())));
  const int rc = ::link(temp.c_str(), lock.c_str());
  const int err = errno;
  std::error_code ignored;
  fs::remove(temp, ignored);
  if (rc == 0) return true;
  if (err == EEXIST) return false;
  throw std::runtime_error(fmt::format("{}: cannot create: {}", lock.string(), std::strerror(err)));
}

}  // namespace

OutputLock::OutputLock(const fs::path& dir, const std::string& shown) : path_(dir / kOutputLock) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (try_take(path_)) return;
    const long pid = holder_of(path_);
    if (is_alive(pid) && pid != static_cast<long>(::getpid())) {
      throw FolderRefused(
          fmt::format("{}: another ckptsim run (pid {}) is writing into it ({} names it); wait for it to end or choose "
                      "another --out",
                      shown, pid, kOutputLock));
    }
    std::error_code ignored;
    fs::remove(path_, ignored);  // stale: its run is gone
  }
  throw FolderRefused(fmt::format("{}: another ckptsim run is taking its {} at the same time", shown, kOutputLock));
}

OutputLock::~OutputLock() {
  std::error_code ignored;
  fs::remove(path_, ignored);
}

}  // namespace ckptsim::cli
