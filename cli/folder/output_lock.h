// cli/folder/output_lock.h
//
// One run at a time per output folder: two runs into one folder would each
// replace the other's files. The lock is a file, DIR/.ckptsim.lock (cli/folder/run_files.h), holding
// the pid of the run that writes there and that process's start time (from
// /proc/PID/stat); it is created whole (written under a temporary name, then
// link(2)ed to its name, which fails if it exists, so two runs never both
// take it) and removed when the run ends. A lock whose pid is no longer alive
// (a run killed with SIGKILL), or is alive but started at another time (the
// pid reused after a reboot), is stale and taken over. A refusal says how to
// check the holder and remove a lock by hand.
//
// Left out: folders shared between machines (a pid means nothing on another
// host) and flock(2), which some network file systems do not honour either.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace ckptsim::cli {

// Whether a process `pid` exists (ours or another user's).
// Whether `pid` is a running ckptsim (/proc/PID/comm is this program's own):
// another share of a grid, not whatever process a reused pid now is.
bool is_ckptsim_process(long pid);
bool process_alive(long pid);

class OutputLock {
 public:
  // Takes DIR's lock; throws FolderRefused (cli/folder/folder_refused.h) naming `shown`
  // and the holder's pid when a live process holds it.
  OutputLock(const std::filesystem::path& dir, const std::string& shown);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::filesystem::path path_;
};

}  // namespace ckptsim::cli
