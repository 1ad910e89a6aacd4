#include "cli/folder/output_lock.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "analysis/regular_file.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/run_files.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using run_files::kOutputLock;

namespace {

// What a lock file records: the holder's pid and its start time (field 22 of
// /proc/PID/stat, clock ticks after boot), so that a pid reused by another
// process (after a reboot, or a long time after) is told apart from the run
// that took the lock. A lock of an older ckptsim holds only the pid (start 0).
struct Holder {
  long pid = 0;
  unsigned long long start = 0;
};

// The start time of process pid, or 0 when it cannot be read.
unsigned long long start_time_of(long pid) {
  const auto stat = analysis::read_regular_file(fmt::format("/proc/{}/stat", pid), 4096);
  if (!stat) return 0;
  // "PID (COMM) STATE PPID ...": COMM may hold spaces and ')', so count from the last ')'.
  const std::size_t paren = stat->text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(stat->text.substr(paren + 1));
  std::string field;
  for (int number = 3; number <= 22 && fields >> field; ++number) {
    if (number < 22) continue;
    unsigned long long start = 0;
    std::from_chars(field.data(), field.data() + field.size(), start);
    return start;
  }
  return 0;
}

Holder holder_of(const fs::path& lock) {
  Holder holder;
  if (const auto head = analysis::read_regular_file(lock, 128)) {
    std::istringstream in(head->text);
    in >> holder.pid >> holder.start;
  }
  return holder;
}

// Whether the lock's run still holds it: its pid is alive and, when the lock
// records a start time, the live process started then.
bool is_alive(const Holder& holder) {
  if (!process_alive(holder.pid)) return false;
  return holder.start == 0 || start_time_of(holder.pid) == holder.start;
}

// Links a file holding our pid and start time to `lock`; false if `lock`
// exists. The file is AtomicFile's temporary, never committed: link(2) gives
// it the lock's name, and the AtomicFile removes its own name after.
bool try_take(const fs::path& lock) {
  const long pid = static_cast<long>(::getpid());
  analysis::AtomicFile file(lock);
  file.out() << pid << ' ' << start_time_of(pid) << '\n' << std::flush;
  if (!file.out()) throw std::runtime_error(fmt::format("{}: cannot write", file.temp_path().string()));
  const int rc = ::link(file.temp_path().c_str(), lock.c_str());
  const int err = errno;
  if (rc == 0) return true;
  if (err == EEXIST) return false;
  throw std::runtime_error(fmt::format("{}: cannot create: {}", lock.string(), std::strerror(err)));
}

}  // namespace

bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

bool is_ckptsim_process(long pid) {
  if (!process_alive(pid)) return false;
  const auto comm = [](const std::string& path) {
    std::ifstream in(path);
    std::string name;
    std::getline(in, name);
    return name;
  };
  const std::string ours = comm("/proc/self/comm");
  return !ours.empty() && comm("/proc/" + std::to_string(pid) + "/comm") == ours;
}

OutputLock::OutputLock(const fs::path& dir, const std::string& shown) : path_(dir / kOutputLock) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (try_take(path_)) return;
    const Holder holder = holder_of(path_);
    if (is_alive(holder) && holder.pid != static_cast<long>(::getpid())) {
      throw FolderRefused(fmt::format(
          "{}: another ckptsim run (pid {}) is writing into it ({} names it); wait for it to end or choose another "
          "--out. If no ckptsim runs there (`ps -p {} -o args=` shows what pid {} is), the lock is stale: remove {}",
          shown, holder.pid, kOutputLock, holder.pid, holder.pid, path_.string()));
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
