#include "analysis/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace ckptsim::analysis {

namespace {

// A descriptor of a regular file, opened without blocking; -1 for anything else.
class RegularFd {
 public:
  explicit RegularFd(const std::filesystem::path& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) {
    struct stat st {};
    if (fd_ >= 0 && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode))) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RegularFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  RegularFd(const RegularFd&) = delete;
  RegularFd& operator=(const RegularFd&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::optional<FileHead> read_regular_file(const std::filesystem::path& path, std::size_t limit) {
  const RegularFd file(path);
  if (file.fd() < 0) return std::nullopt;
  FileHead head;
  char chunk[65536];
  // One byte past the limit tells whether the file goes on.
  while (head.text.size() <= limit) {
    const std::size_t want = std::min(sizeof chunk, limit + 1 - head.text.size());
    const ssize_t n = ::read(file.fd(), chunk, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    head.text.append(chunk, static_cast<std::size_t>(n));
  }
  head.cut = head.text.size() > limit;
  if (head.cut) head.text.resize(limit);
  return head;
}

bool is_readable_regular_file(const std::filesystem::path& path) { return RegularFd(path).fd() >= 0; }

}  // namespace ckptsim::analysis
