// models/os/file_system.h
//
// What PostgreSQL sees of Linux: files of 8 kB blocks on a device, and the
// system calls of its write path, as awaitables that take simulated time
// (pread, pwrite, fsync, fdatasync, sync_file_range(SYNC_FILE_RANGE_WRITE),
// posix_fadvise(DONTNEED)). This is the seam between models/postgres and
// models/os. PostgreSQL's 8 kB block is the unit here; the page cache below
// keeps its own 4 kB accounting.
//
// Every call names the calling process (OsTask), because the kernel treats
// processes differently: dirty throttling is per task, CFQ has a sync queue
// per process, plugging is per task.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/os/io_layer.h"
#include "sim/process.h"
#include "sim/state_clock.h"
#include "sim/time.h"

namespace ckptsim::os {

using FileId = std::int32_t;
inline constexpr sim::Bytes kBlockBytes = 8 * sim::kKiB;

// Which device a file lives on: PGDATA, or pg_wal (pg_xlog) when WAL has a device of its own.
enum class Volume : std::uint8_t { Data, Wal };

// A process as the kernel knows it.
struct OsTask {
  int pid = 0;
  std::string name;  // "checkpointer", "backend 3", ...
  // Where its time inside system calls went (io_layer.h), kept by the kernel.
  sim::StateClock<IoLayer> io_layers;
  // Per-task state of the kernel (dirty throttling debt, plug list) lives in
  // the kernel model, indexed by pid.
};

// The task's clock in `layer` for the scope (none for the kernel's own threads: a null task).
inline sim::StateScope<IoLayer> in_layer(OsTask* task, IoLayer layer) {
  return {task != nullptr ? &task->io_layers : nullptr, layer};
}

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Registers a process; pids are handed out in registration order.
  virtual OsTask& new_task(std::string name) = 0;

  // Creates a file of `blocks` blocks that already exist on the device (as
  // after pgbench -i and a restart: on disk, not in the page cache). Files
  // are laid out on their volume's device in creation order, each in one
  // extent with room to grow up to `max_blocks`.
  virtual FileId create(std::string_view name, Volume volume, std::int64_t blocks, std::int64_t max_blocks) = 0;
  virtual std::int64_t size_blocks(FileId file) const = 0;

  // pread of blocks [block, block + count): page-cache hit or device read.
  virtual sim::Task<> read(OsTask& task, FileId file, std::int64_t block, std::int64_t count = 1) = 0;
  // pwrite into the page cache (may extend the file); may be throttled.
  virtual sim::Task<> write(OsTask& task, FileId file, std::int64_t block, std::int64_t count = 1) = 0;
  virtual sim::Task<> fsync(OsTask& task, FileId file) = 0;
  virtual sim::Task<> fdatasync(OsTask& task, FileId file) = 0;
  // sync_file_range(fd, off, len, SYNC_FILE_RANGE_WRITE): start writeback, do not wait for it.
  virtual sim::Task<> sync_file_range(OsTask& task, FileId file, std::int64_t block, std::int64_t count) = 0;
  // posix_fadvise(POSIX_FADV_DONTNEED): start writeback, drop clean cached pages of the range.
  virtual sim::Task<> fadvise_dontneed(OsTask& task, FileId file, std::int64_t block, std::int64_t count) = 0;
  // Truncates to 0 and forgets the cached pages.
  virtual void truncate(FileId file) = 0;
  // unlink(2) of a file nobody opens again (a removed WAL segment; a recycled
  // one is renamed and kept): truncated, after which the file can hold no
  // page. Its FileId stays valid; the kernel may free what it kept per block.
  virtual void remove(FileId file) { truncate(file); }

  // What a buffered read or write of [block, block + count), done before the
  // simulation starts and long since written back, left in the page cache:
  // the blocks are cached, clean and referenced, and the LRU's own reclaim
  // decides which earlier blocks gave way when they do not all fit. The
  // history of a host (pgbench -i) replayed in order; no simulated time, no I/O.
  virtual void access_before_start(FileId file, std::int64_t block, std::int64_t count) = 0;

  // A power loss now (ckptsim run --crash-at): the blocks of [from, to) that
  // are not on stable storage, ascending. That is, dirty or under writeback in
  // the page cache (lost with RAM, or torn in flight), or acknowledged by a
  // device that holds them only in a volatile cache. Takes no simulated time.
  virtual std::vector<std::int64_t> unstable_blocks(FileId file, std::int64_t from, std::int64_t to) const = 0;
  // Whether a completed fsync / fdatasync of the file made its data stable:
  // false when its device has a volatile cache that the file system never
  // flushes (ext4 nobarrier over a write-back cache).
  virtual bool fsync_is_durable(FileId file) const = 0;
};

}  // namespace ckptsim::os
