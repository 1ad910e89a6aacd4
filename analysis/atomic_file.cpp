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
#include <streambuf>
#include <string>
#include <system_error>
#include <vector>

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
  throw std::runtime_error(fmt::format("{}: {}: {}", path.string(), what, err != 0 ? std::strerror(err) : "I/O error"));
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

// An output buffer over a file descriptor that keeps the first failed
// write's errno (std::filebuf reports only that something failed).
class FileBuffer : public std::streambuf {
 public:
  explicit FileBuffer(int fd) : fd_(fd), data_(64 * 1024) { setp(data_.data(), data_.data() + data_.size()); }
  ~FileBuffer() override { close(); }

  // 0, or the errno of the first write that failed.
  int error() const { return error_; }

  // Writes what is buffered; false (and error() set) if it could not.
  bool drain() {
    const char* at = pbase();
    while (at < pptr() && error_ == 0) {
      const ssize_t n = ::write(fd_, at, static_cast<std::size_t>(pptr() - at));
      if (n > 0) at += n;
      else if (n < 0 && errno == EINTR) continue;
      else error_ = n < 0 ? errno : EIO;
    }
    setp(data_.data(), data_.data() + data_.size());
    return error_ == 0;
  }

  // Closes the descriptor; the errno of a failed close(2) (NFS reports write errors there).
  int close() {
    if (fd_ < 0) return 0;
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }
  int fd() const { return fd_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  int fd_;
  int error_ = 0;
  std::vector<char> data_;
};

AtomicFile::AtomicFile(std::filesystem::path path, bool fsync)
    : path_(std::move(path)), temp_path_(temp_name_for(path_)), out_(nullptr), fsync_(fsync) {
  const int fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) fail(temp_path_, "cannot create", errno);
  buffer_ = std::make_unique<FileBuffer>(fd);
  out_.rdbuf(buffer_.get());
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (buffer_) buffer_->close();
  std::error_code ignored;  // nothing useful to do if the temporary cannot go
  std::filesystem::remove(temp_path_, ignored);
}

void AtomicFile::commit() {
  if (committed_) throw std::logic_error(fmt::format("{}: committed twice", path_.string()));
  out_.flush();
  if (!out_ || buffer_->error() != 0) fail(temp_path_, "write failed", buffer_->error());
  if (fsync_ && ::fsync(buffer_->fd()) != 0) fail(temp_path_, "fsync failed", errno);
  if (const int err = buffer_->close(); err != 0) fail(temp_path_, "close failed", err);
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
