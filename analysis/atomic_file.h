// analysis/atomic_file.h
//
// An output file that appears under its final name only when complete: the
// content goes to "<path>.tmp.<pid>.<counter>" in the same folder (so the final
// rename stays within one filesystem, where rename(2) is atomic), and commit()
// renames it over the final path. A run that is killed, or throws before
// commit(), leaves the old file (or none) under the final name, never a
// half-written one; the destructor removes the temporary file.
//
// fsync is optional (off by default): it makes the content durable across a
// power loss, which simulation outputs rarely need and which costs a disk
// flush per file. When on, the file and then its folder are synced.
//
// The content goes through a buffer of its own over write(2), which keeps the
// first write's errno: a full disk is reported as "No space left on device"
// at commit(), however long before the write failed (an ofstream loses it).
//
// A process killed with SIGKILL leaves its temporaries (their names say which
// pid left them); the next run into that folder removes them (cli/folder/run_folder.h).
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string_view>

namespace ckptsim::analysis {

class FileBuffer;  // atomic_file.cpp

class AtomicFile {
 public:
  // Opens the temporary file; throws std::runtime_error (path and strerror) if it cannot.
  explicit AtomicFile(std::filesystem::path path, bool fsync = false);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& out() { return out_; }

  // Flushes, checks the stream, optionally fsyncs, and renames over the final
  // path (replacing an existing file). Throws std::runtime_error naming the
  // path and the reason; after a failure the temporary file is still removed
  // by the destructor. Calling it twice is an error.
  void commit();

  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temp_path() const { return temp_path_; }

 private:
  std::filesystem::path path_;
  std::filesystem::path temp_path_;
  std::unique_ptr<FileBuffer> buffer_;
  std::ostream out_;
  bool fsync_;
  bool committed_ = false;
};

// Writes content to path through an AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::string_view content);

}  // namespace ckptsim::analysis
