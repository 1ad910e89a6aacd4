// models/os/kernel.h
//
// Linux under PostgreSQL: the FileSystem seam implemented by a page cache,
// per-device flusher threads, writer throttling, ext4's fsync family and one
// block queue per device (docs/reference/os-disk-model.md sections 2, 3 and 7).
//
// Kernel is the facade; each part owns its state and is reached by calls:
//   page_cache.*      block states, LRU reclaim, meminfo counters, page waits
//   kernel.cpp        boot, tasks, files and layout, truncate and unlink
//   filemap.*         read (readahead) and its completion, write (dirtying)
//   writepages.*      write_pages (write_cache_pages as ext4_da_writepages) and its completion
//   bio_pool.h        the bios the page cache builds
//   backing_devices.h the bdi list: one bdi per device, the data device's first
//   bdi_writeback.*   per device: dirty-inode lists, the flusher (wb_writeback), bandwidth, iostat, its queue
//   dirty_throttle.*  the dirty limits and balance_dirty_pages, one strategy per generation: IO-less (3.2+),
//                     writer-writeback (3.0)
//   fsync.cpp         fsync, fdatasync, sync_file_range, fadvise
//   jbd2.*            ext4's jbd2 journal: handles, kjournald2, the commit
//   kernel_metrics.cpp system.csv columns and the summary, collected from the parts; the page conservation check
//   power_loss.cpp    what a power loss takes: the page cache's RAM and the devices' volatile caches
//   block_queue.*, elevator_*, md_raid1.*  the block layer
//
// Layout: each volume's files occupy consecutive extents of their device in
// creation order (room for max_blocks each); the data device starts with a
// 128 MiB ext4 journal.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/disk/device.h"
#include "models/os/backing_devices.h"
#include "models/os/bdi_writeback.h"
#include "models/os/bio_pool.h"
#include "models/os/block_queue.h"
#include "models/os/dirty_limits.h"
#include "models/os/dirty_throttle.h"
#include "models/os/file_system.h"
#include "models/os/filemap.h"
#include "models/os/jbd2.h"
#include "models/os/kernel_report.h"
#include "models/os/md_raid1.h"
#include "models/os/os_config.h"
#include "models/os/page_cache.h"
#include "models/os/writepages.h"
#include "sim/process.h"
#include "sim/sampler.h"
#include "sim/simulator.h"
#include "sim/sync.h"
#include "sim/timer.h"

namespace ckptsim::os {

class Kernel final : public FileSystem {
 public:
  Kernel(sim::Simulator& sim, const OsConfig& config, const Memory& memory, disk::Device& data_device,
         disk::Device* wal_device /* nullptr: WAL on the data device */, std::uint64_t seed);
  ~Kernel() override;

  // FileSystem
  OsTask& new_task(std::string name) override;
  FileId create(std::string_view name, Volume volume, std::int64_t blocks, std::int64_t max_blocks) override;
  std::int64_t size_blocks(FileId file) const override;
  sim::Task<> read(OsTask& task, FileId file, std::int64_t block, std::int64_t count = 1) override;
  sim::Task<> write(OsTask& task, FileId file, std::int64_t block, std::int64_t count = 1) override;
  sim::Task<> fsync(OsTask& task, FileId file) override;
  sim::Task<> fdatasync(OsTask& task, FileId file) override;
  sim::Task<> sync_file_range(OsTask& task, FileId file, std::int64_t block, std::int64_t count) override;
  sim::Task<> fadvise_dontneed(OsTask& task, FileId file, std::int64_t block, std::int64_t count) override;
  void truncate(FileId file) override;
  void remove(FileId file) override;
  void access_before_start(FileId file, std::int64_t block, std::int64_t count) override;
  std::vector<std::int64_t> unstable_blocks(FileId file, std::int64_t from, std::int64_t to) const override;
  bool fsync_is_durable(FileId file) const override;

  // system.csv: dirty_mb, writeback_mb, writeback_<reason>_mb_s, then iostat -x per device (data_, wal_).
  void add_system_columns(sim::Table& system);
  // The parts' figures of the run, collected.
  KernelReport report() const;
  // Page conservation: every page dirtied is clean on the device, still dirty,
  // under writeback, or was dropped by truncate; the counters agree with the
  // block arrays and with the sectors the devices wrote.
  bool check_accounting(std::string* why) const;

  // For tests and reports.
  std::int64_t dirty_pages() const { return cache_.dirty() * kPagesPerBlock; }
  std::int64_t writeback_pages() const { return cache_.writeback() * kPagesPerBlock; }
  std::int64_t cached_pages() const { return cache_.cached() * kPagesPerBlock; }
  std::int64_t page_cache_capacity_pages() const { return cache_.capacity() * kPagesPerBlock; }
  // mincore(2) / fincore over blocks [block, block + count) of a file: how many are cached.
  std::int64_t cached_blocks(FileId file, std::int64_t block, std::int64_t count) const;
  // Removed files whose block arrays are still kept (pages under I/O when removed).
  std::size_t removed_files_pending() const { return removed_.size(); }
  const Jbd2Journal& journal() const { return journal_; }
  const DirtyThrottle& throttle() const { return *throttle_; }
  std::int64_t pages_written(WbReason reason) const { return writepages_.blocks_started(reason) * kPagesPerBlock; }
  // One visit of the flusher to a file (writeback_single_inode's writepages):
  // a range_cyclic WB_SYNC_NONE pass of at most nr_to_write blocks; returns blocks started.
  sim::Task<std::int64_t> writeback_single_inode(FileId file, std::int64_t nr_to_write) {
    co_return co_await writepages_.write_range(
        cache_.inode(file), {.nr_to_write = nr_to_write, .range_cyclic = true, .reason = WbReason::Background});
  }
  BackingDevices& devices() { return devices_; }

 private:
  void add_backing_device(disk::Device& device, Scheduler scheduler, std::string name, WritebackHost& host,
                          double initial_bw);
  // fsync.cpp
  sim::Task<> sync_inode(OsTask& task, Inode& inode, bool datasync);

  sim::Simulator& sim_;
  const OsConfig config_;  // a copy: callers may pass a temporary
  PageCache cache_;
  std::deque<OsTask> tasks_;
  std::unique_ptr<DirtyThrottle> throttle_;  // the dirty limits, balance_dirty_pages of this kernel generation
  BackingDevices devices_;
  std::array<sim::Bytes, 2> next_extent_ = {0, 0};  // per volume, in sectors
  BioPool bios_;
  Writepages writepages_;
  Jbd2Journal journal_;  // ext4's, on the data volume
  SyscallCounts counts_;
  Filemap filemap_;  // read(2) and write(2)
  // Removed files whose block arrays wait for their last page to leave the
  // cache (a write under way when the file was removed).
  std::vector<FileId> removed_;
  // Pages written per reason at the previous system.csv interval.
  std::array<std::int64_t, static_cast<std::size_t>(WbReason::Count)> wb_started_{};
};

}  // namespace ckptsim::os
