// analysis/regular_file.h
//
// Reading a file under a name that a user's folder may hold anything under:
// a FIFO (open(2) of one blocks until a writer comes, so a reader would hang
// holding whatever it holds), a device (/dev/zero never ends), a folder. The
// file is opened with O_NONBLOCK, so that opening a FIFO returns at once, and
// its type is checked on the open descriptor (fstat), so that nothing swapped
// in between a check and the open is read: only a regular file is, and at
// most `limit` bytes of it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace ckptsim::analysis {

struct FileHead {
  std::string text;  // the first `limit` bytes (or all of it)
  bool cut = false;  // the file holds more than `limit` bytes
};

// The head of a regular file, or nullopt when path is missing, unreadable or
// not a regular file (a FIFO, a device, a folder, a socket).
std::optional<FileHead> read_regular_file(const std::filesystem::path& path, std::size_t limit);

// Whether path names a regular file that can be opened (a symbolic link is
// followed), by the same open-and-fstat check; nothing is read.
bool is_readable_regular_file(const std::filesystem::path& path);

}  // namespace ckptsim::analysis
