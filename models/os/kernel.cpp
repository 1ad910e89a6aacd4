// models/os/kernel.cpp
//
// The kernel's boot (the block devices and their bdis, the kernel threads),
// tasks, files and their layout, truncate and unlink; read(2) and write(2)
// are the page cache's paths in filemap.cpp.
#include "models/os/kernel.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::os {

namespace {
constexpr std::int64_t kJournalSectors = 128 * sim::kMiB / 512;  // the ext4 journal at the start of the data device
}

Kernel::Kernel(sim::Simulator& sim, const OsConfig& config, const Memory& memory, disk::Device& data_device,
               disk::Device* wal_device, std::uint64_t /*seed: nothing random in this layer*/)
    : sim_(sim),
      config_(config),
      cache_(sim, std::max<sim::Bytes>(0, memory.ram - memory.shared_memory - config.reserved_memory) / kBlockBytes),
      throttle_(make_dirty_throttle(sim, config_, memory, cache_)),
      writepages_(config_, cache_, journal_, bios_, devices_, tasks_),
      journal_(sim, config_, writepages_),
      filemap_(sim, config_, cache_, devices_, *throttle_, journal_, bios_, counts_) {
  const double initial_bw = 100.0 * sim::kMiB / kBlockBytes;  // the kernel's initial estimate: 100 MB/s
  WritebackHost& host = writepages_;
  add_backing_device(data_device, config_.scheduler, "data", host, initial_bw);
  if (wal_device != nullptr && wal_device != &data_device) {
    const Scheduler wal_scheduler =
        config.wal_scheduler == Scheduler::Default ? config.scheduler : config.wal_scheduler;
    add_backing_device(*wal_device, wal_scheduler, "wal", host, initial_bw);
  }
  next_extent_[0] = kJournalSectors;
  devices_.start(sim_);
  if (journal_.enabled()) journal_.start(new_task("jbd2/sda1-8"), devices_.at(0).queue());
}

Kernel::~Kernel() {
  devices_.clear();  // their inode lists first: the page cache owns the inodes
}

// A request queue over `device`, or md with per-member queues and a raid1d
// task, under a bdi of its own; blk-throttle above it when the volume has limits.
void Kernel::add_backing_device(disk::Device& device, Scheduler scheduler, std::string name, WritebackHost& host,
                                double initial_bw) {
  const BlkThrottleConfig& limits = name == "wal" ? config_.wal_blkio_throttle : config_.blkio_throttle;
  std::unique_ptr<BlockDevice> queue;
  MdRaid1* md = nullptr;
  if (device.members() == 0 || config_.md_layering != MdLayering::Raid1d) {
    queue = std::make_unique<BlockQueue>(sim_, config_, device, scheduler, std::move(name));
  } else {
    OsTask& raid1d = new_task("md" + std::to_string(devices_.md_count()) + "_raid1d");
    auto array = std::make_unique<MdRaid1>(sim_, config_, device, scheduler, raid1d);
    md = array.get();
    queue = std::move(array);
  }
  BlkThrottle* throttle = nullptr;
  if (limits.enabled()) {
    auto throttled = std::make_unique<BlkThrottle>(sim_, limits, std::move(queue));
    throttle = throttled.get();
    queue = std::move(throttled);
  }
  devices_.add(std::make_unique<BdiWriteback>(sim_, config_, cache_, host, *throttle_, std::move(queue), initial_bw),
               md, throttle);
}

OsTask& Kernel::new_task(std::string name) {
  OsTask& task = tasks_.emplace_back();
  task.pid = static_cast<int>(tasks_.size());  // pid 0 is the kernel's own threads
  task.name = std::move(name);
  task.io_layers = sim::StateClock<IoLayer>(sim_, IoLayer::None);
  throttle_->add_task(task.pid);
  return task;
}

FileId Kernel::create(std::string_view name, Volume volume, std::int64_t blocks, std::int64_t max_blocks) {
  if (blocks < 0 || max_blocks < blocks || max_blocks <= 0) {
    throw std::invalid_argument("create " + std::string(name) + ": needs 0 <= blocks <= max_blocks, max_blocks > 0");
  }
  Inode& inode = cache_.add_file(std::string(name), volume, max_blocks);
  inode.bdi = devices_.index(volume);
  const auto vol = static_cast<std::size_t>(inode.bdi);
  inode.first_sector = next_extent_[vol];
  next_extent_[vol] += max_blocks * kSectorsPerBlock;
  inode.size = blocks;
  inode.grow(blocks);
  inode.allocated = blocks;
  return inode.id;
}

std::int64_t Kernel::size_blocks(FileId file) const { return cache_.inode(file).size; }

sim::Task<> Kernel::read(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  return filemap_.read(task, file, block, count);
}

sim::Task<> Kernel::write(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  return filemap_.write(task, file, block, count);
}

// ---- truncate ----

void Kernel::truncate(FileId file) {
  Inode& in = cache_.inode(file);
  for (std::int64_t b = 0; b < static_cast<std::int64_t>(in.blocks.size()); ++b) {
    CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (cb.has(kDirty)) {
      cache_.clear_dirty(in, b);
      ++counts_.discarded;
    }
    // Pages under I/O are freed when it completes (b >= size then).
    if (cb.has(kCached) && !cb.has(kWriteback) && !cb.has(kLocked)) cache_.release(in, b);
  }
  in.size = 0;
  in.ra_next = -1;
  in.ra_window = 0;
  in.writeback_index = 0;
  in.allocated = 0;
  in.datasync_tid = journal_.running_tid();
}

// The inode of an unlinked file is freed (evict_inode) once nothing holds
// it; here, its per-block arrays are, once none of its pages is cached,
// under writeback or on a writeback list. A long run creates and removes a
// WAL segment every 16 MB, and each one's 2048-block array would otherwise
// stay for the rest of the run.
void Kernel::remove(FileId file) {
  truncate(file);
  removed_.push_back(file);
  std::erase_if(removed_, [this](FileId f) {
    Inode& in = cache_.inode(f);
    if (in.nr_cached > 0 || in.nr_writeback > 0 || in.dirty || in.i_sync || in.list != WbList::None) return false;
    cache_.forget_blocks(in);
    return true;
  });
}

// ---- the host's past ----

void Kernel::access_before_start(FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = cache_.inode(file);
  if (block < 0 || count < 0 || block + count > in.size) {
    throw std::invalid_argument("access_before_start " + in.name + ": blocks outside the file");
  }
  for (std::int64_t b = block; b < block + count; ++b) {
    if (!cache_.access_idle(in, b)) return;  // nothing reclaimable: the page cache has no room at all
  }
}

std::int64_t Kernel::cached_blocks(FileId file, std::int64_t block, std::int64_t count) const {
  const Inode& in = cache_.inode(file);
  std::int64_t n = 0;
  for (std::int64_t b = std::max<std::int64_t>(block, 0); b < std::min(block + count, in.size); ++b) {
    n += in.blocks[static_cast<std::size_t>(b)].has(kCached) ? 1 : 0;
  }
  return n;
}

}  // namespace ckptsim::os
