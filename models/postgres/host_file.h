// models/postgres/host_file.h
//
// A file that a process running beside the server, on the same host, appends
// text to through the server's file system: pgbench's stderr redirected to a
// file on PGDATA's ext4 (`pgbench -P 1 ... 2> pgbench.log`, as on the E1 host).
// Its write(2) goes through the same page cache as the server's own writes, so
// it waits where theirs wait: a stable page under writeback (3.0-3.8), no clean
// page to reuse, balance_dirty_pages.
//
// Why it is in this layer: models/pgbench reaches the host only through the
// Server (it may not include models/os), and a -P line written to the data
// volume is the one place where the client side touches that file system.
// This is the narrowest opening for it: append N bytes, as one named process.
//
// An append of n bytes at byte offset `end` is a buffered write(2) of the 8 kB
// blocks [end / 8 kB, (end + n - 1) / 8 kB]: the block that holds the end of
// the file, and the next one when the text crosses into it (extending the file).
// Left out: the bytes themselves (only their count), O_APPEND's inode lock,
// the journal handle that file_update_time takes for mtime.
#pragma once

#include <cstdint>

#include "models/os/file_system.h"
#include "sim/process.h"

namespace ckptsim::postgres {

class HostFile {
 public:
  HostFile(os::FileSystem& fs, os::OsTask& writer, os::FileId file) : fs_(fs), writer_(writer), file_(file) {}
  HostFile(const HostFile&) = delete;
  HostFile& operator=(const HostFile&) = delete;

  // write(2) of `bytes` at the end of the file; returns when the kernel does.
  sim::Task<> append(std::int64_t bytes);
  std::int64_t size_bytes() const noexcept { return size_bytes_; }
  // The file's size as the kernel keeps it, in 8 kB blocks.
  std::int64_t size_blocks() const { return fs_.size_blocks(file_); }

 private:
  os::FileSystem& fs_;
  os::OsTask& writer_;
  os::FileId file_;
  std::int64_t size_bytes_ = 0;
};

}  // namespace ckptsim::postgres
