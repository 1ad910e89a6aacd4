// analysis/atomic_file.cpp
//
// POSIX underneath: getpid() for the temporary name, fsync(2) on request,
// rename(2) for the switch, so that failures report errno's own words.
#include "analysis/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

#include <fmt/format.h>

namespace ckptsim::analysis {

namespace {

// Distinguishes the temporaries of one process (several threads may write
// files of one grid at once).
std::atomic<unsigned long long> g_temp_counter{0};

std::filesystem::path temp_name_for(const std::filesystem::path& path) {
  const auto n = g_temp_counter.fetch_add(1, std::memory_order_relaxed);
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp.{}.{}", static_cast<long>(::getpid()), n);
  return temp;
}

[[noreturn]] void fail(const std::filesystem::path& path, std::string_view what, int err) {
  throw std::runtime_error(
      fmt::format("{}: {}: {}", path.string(), what, err != 0 ? std::strerror(err) : "I/O error"));
}

void fsync_path(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) fail(path, "cannot open for fsync", errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) fail(path, "fsync failed", err);
}

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path, bool fsync)
    : path_(std::move(path)), temp_path_(temp_name_for(path_)), fsync_(fsync) {
  errno = 0;
  out_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!out_) fail(temp_path_, "cannot create", errno);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;  // nothing useful to do if the temporary cannot go
  std::filesystem::remove(temp_path_, ignored);
}

void AtomicFile::commit() {
  if (committed_) throw std::logic_error(fmt::format("{}: committed twice", path_.string()));
  errno = 0;
  out_.flush();
  if (!out_) fail(temp_path_, "write failed", errno);
  out_.close();
  if (!out_) fail(temp_path_, "close failed", errno);
  if (fsync_) fsync_path(temp_path_, O_RDONLY);
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    fail(path_, fmt::format("cannot rename {} over it", temp_path_.filename().string()), errno);
  }
  committed_ = true;
  if (fsync_) {
    const auto folder = path_.parent_path().empty() ? std::filesystem::path(".") : path_.parent_path();
    fsync_path(folder, O_RDONLY | O_DIRECTORY);  // makes the rename itself durable
  }
}

void write_file_atomically(const std::filesystem::path& path, std::string_view content) {
  AtomicFile file(path);
  file.out().write(content.data(), static_cast<std::streamsize>(content.size()));
  file.commit();
}

}  // namespace ckptsim::analysis
