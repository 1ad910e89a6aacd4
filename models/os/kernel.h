// models/os/kernel.h
//
// Linux under PostgreSQL: the FileSystem seam implemented by a page cache,
// per-device flusher threads, writer throttling, ext4's fsync family and one
// block queue per device (os-disk-model.md sections 2, 3 and 7).
//
// The parts, one file each:
//   page_cache.*      block states, LRU reclaim, meminfo counters
//   kernel.cpp        files and layout, read (readahead) and write (dirtying)
//   writeback.cpp     write_pages (write_cache_pages)
//   bdi_writeback.*   per device: dirty-inode lists, the flusher (wb_writeback), bandwidth, its queue
//   dirty_throttle.* balance_dirty_pages, one strategy per generation: IO-less (3.2+), writer-writeback (3.0)
//   fsync.cpp         fsync, fdatasync, sync_file_range, fadvise
//   jbd2.*            ext4's jbd2 journal: handles, kjournald2, the commit
//   kernel_metrics.cpp system.csv columns, summary, the page conservation check
//   block_queue.*, elevator_*  the block layer
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
#include "models/os/bdi_writeback.h"
#include "models/os/bio_pool.h"
#include "models/os/block_queue.h"
#include "models/os/dirty_limits.h"
#include "models/os/dirty_throttle.h"
#include "models/os/file_system.h"
#include "models/os/jbd2.h"
#include "models/os/md_raid1.h"
#include "models/os/kernel_report.h"
#include "models/os/os_config.h"
#include "models/os/page_cache.h"
#include "sim/process.h"
#include "sim/sampler.h"
#include "sim/simulator.h"
#include "sim/sync.h"
#include "sim/timer.h"

namespace ckptsim::os {

// Whether block `b` of the bio's file continues `bio` within the queue's
// request size limit (bio_add_page), so it rides in the same bio.
inline bool extends(const Bio* bio, std::int64_t b, const BlockDevice& q) {
  return bio != nullptr && bio->first_block + bio->bytes / kBlockBytes == b &&
         bio->bytes / 512 + kSectorsPerBlock <= q.max_sectors();
}

class Kernel final : public FileSystem, private BioOwner, private WritebackHost,
                     private OrderedDataWriter {
 public:
  Kernel(sim::Simulator& sim, const OsConfig& config, const Memory& memory, disk::Device& data_device,
         disk::Device* wal_device /* nullptr: WAL on the data device */, std::uint64_t seed);
  ~Kernel() override;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

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
  void access_before_start(FileId file, std::int64_t block, std::int64_t count) override;
  std::vector<std::int64_t> unstable_blocks(FileId file, std::int64_t from, std::int64_t to) const override;
  bool fsync_is_durable(FileId file) const override;

  // system.csv: dirty_mb, writeback_mb, then iostat -x per device (data_, wal_).
  void add_system_columns(sim::Table& system);
  KernelReport report() const;
  // Page conservation: every page dirtied is clean on the device, still dirty,
  // under writeback, or was dropped by truncate; the counters agree with the
  // block arrays and with the sectors the devices wrote.
  bool check_accounting(std::string* why) const;

  // For tests and reports.
  DirtyLimits dirty_limits() const { return throttle_->limits(); }
  std::int64_t dirty_pages() const { return cache_.dirty() * kPagesPerBlock; }
  std::int64_t writeback_pages() const { return cache_.writeback() * kPagesPerBlock; }
  std::int64_t cached_pages() const { return cache_.cached() * kPagesPerBlock; }
  std::int64_t page_cache_capacity_pages() const { return cache_.capacity() * kPagesPerBlock; }
  // mincore(2) / fincore over blocks [block, block + count) of a file: how many are cached.
  std::int64_t cached_blocks(FileId file, std::int64_t block, std::int64_t count) const;
  const Jbd2Journal& journal() const { return journal_; }
  std::int64_t pages_written(WbReason reason) const {
    return wb_started_[static_cast<std::size_t>(reason)] * kPagesPerBlock;
  }
  std::int64_t peak_dirty_pages() const { return peak_dirty_ * kPagesPerBlock; }  // Dirty + Writeback
  std::int64_t throttle_pauses() const { return throttle_->pauses(); }
  sim::Duration throttle_max_pause() const { return throttle_->max_pause(); }
  BlockDevice& queue(Volume volume) { return bdis_[bdi_of(volume)]->queue(); }
  const BlockDevice& queue(Volume volume) const { return bdis_[bdi_of(volume)]->queue(); }
  // The volume's md array when it is layered as Linux 3.x does (os.md_layering "raid1d"), else null.
  MdRaid1* md(Volume volume) { return dynamic_cast<MdRaid1*>(&queue(volume)); }
  bool wal_has_own_device() const { return bdis_.size() > 1; }
  double write_bandwidth_mb_s(Volume volume) const;

 private:
  // A request queue over `device`, or md with per-member queues and a raid1d task.
  std::unique_ptr<BlockDevice> make_block_device(disk::Device& device, Scheduler scheduler, std::string name);
  int bdi_of(Volume volume) const { return volume == Volume::Wal && bdis_.size() > 1 ? 1 : 0; }
  Inode& inode(FileId file) { return cache_.inode(file); }
  void bio_done(Bio& bio) override;
  void bio_dispatched(Bio& bio) override;

  // Where a task's time in the kernel goes (io_layer.h); pid 0, the kernel's
  // own threads, keeps no clock.
  OsTask* task_of(int pid) { return pid > 0 ? &tasks_[static_cast<std::size_t>(pid - 1)] : nullptr; }
  static sim::StateClock<IoLayer>* layers_of(OsTask* task) { return task != nullptr ? &task->io_layers : nullptr; }
  // A wait for this inode's writeback: queued while any of it is not yet at the device.
  static IoLayer writeback_layer(const Inode& inode) {
    return inode.nr_writeback > inode.nr_writeback_at_device ? IoLayer::Scheduler : IoLayer::Device;
  }

  // kernel.cpp
  sim::Task<bool> allocate_block(OsTask* task, Inode& inode, std::int64_t b);
  sim::Task<> wait_on_block(OsTask* task, Inode& inode, std::int64_t b, std::uint8_t flag);
  void writeback_started(Inode& inode);
  void mark_inode_dirty(Inode& inode);
  void note_dirty_peak();

  // writeback.cpp (WritebackHost)
  sim::Task<std::int64_t> write_pages(Inode& inode, const WritebackControl& wbc, Plug& plug) override;

  // fsync.cpp
  sim::Task<> sync_inode(OsTask& task, Inode& inode, bool datasync);

  // Whether writes to this inode go through the data volume's journal.
  bool journaled(const Inode& in) const { return journal_.enabled() && in.bdi == 0; }
  // OrderedDataWriter
  sim::Task<> submit_data(OsTask& task, FileId file) override;
  sim::Task<> wait_data(OsTask& task, FileId file) override;

  sim::Simulator& sim_;
  const OsConfig config_;  // a copy: callers may pass a temporary
  PageCache cache_;
  std::deque<OsTask> tasks_;
  std::unique_ptr<DirtyThrottle> throttle_;  // the dirty limits, balance_dirty_pages of this kernel generation
  std::vector<std::unique_ptr<BdiWriteback>> bdis_;  // data device, then the WAL device if it has one
  std::vector<MdRaid1*> mds_;                         // md arrays among them
  std::array<sim::Bytes, 2> next_extent_ = {0, 0};  // per volume, in sectors
  BioPool bios_;

  Jbd2Journal journal_;  // ext4's, on the data volume

  // Accounting, in blocks.
  std::int64_t dirtied_ = 0;
  std::int64_t discarded_ = 0;
  std::array<std::int64_t, static_cast<std::size_t>(WbReason::Count)> wb_started_{};
  std::int64_t wb_done_ = 0;
  std::int64_t read_hits_ = 0, read_misses_ = 0, readahead_blocks_ = 0;
  std::int64_t peak_dirty_ = 0;
  std::int64_t fsyncs_ = 0;
  sim::Duration fsync_time_ = 0, fsync_max_ = 0;
  std::int64_t sync_file_ranges_ = 0;

  // Metrics: the previous snapshot of each device's counters.
  std::vector<DiskStats> last_stats_;
  sim::Time last_sample_ = 0;
};

}  // namespace ckptsim::os
