// models/os/kernel.cpp
//
// Files and their layout, the buffered read path (mm/filemap.c
// generic_file_read, mm/readahead.c) and the buffered write path
// (generic_perform_write: allocate, stable-page wait, set_page_dirty,
// __mark_inode_dirty, balance_dirty_pages_ratelimited), and bio completion
// (end_page_writeback, unlock_page after a read).
//
// Readahead: a read that continues where the previous read of the file
// ended (or starts at block 0) is sequential; its window starts at 4 x the
// request, grows x4 while small and x2 after, up to read_ahead_kb, and the
// blocks past the request are read in the same request without the reader
// waiting for them (the async part). A random read reads only its blocks.
// Left out: the PG_readahead marker (the next window is issued at the next
// miss, not ahead of it), read-CPU cost (a hit costs no simulated time).
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
      writepages_(config_, cache_, journal_, bios_, bdis_, tasks_),
      journal_(sim, config_, writepages_) {
  const double initial_bw = 100.0 * sim::kMiB / kBlockBytes;  // the kernel's initial estimate: 100 MB/s
  WritebackHost& host = writepages_;
  bdis_.push_back(std::make_unique<BdiWriteback>(
      sim, config_, cache_, host, *throttle_, make_block_device(data_device, config_.scheduler, "data"), initial_bw));
  if (wal_device != nullptr && wal_device != &data_device) {
    const Scheduler wal_scheduler =
        config.wal_scheduler == Scheduler::Default ? config.scheduler : config.wal_scheduler;
    bdis_.push_back(std::make_unique<BdiWriteback>(sim, config_, cache_, host, *throttle_,
                                                   make_block_device(*wal_device, wal_scheduler, "wal"), initial_bw));
  }
  next_extent_[0] = kJournalSectors;
  for (auto& bdi : bdis_) sim_.spawn(bdi->flusher());
  for (MdRaid1* md : mds_) sim_.spawn(md->raid1d());
  if (journal_.enabled()) journal_.start(new_task("jbd2/sda1-8"), bdis_[0]->queue());
}

Kernel::~Kernel() {
  bdis_.clear();  // their inode lists first: the page cache owns the inodes
}

std::unique_ptr<BlockDevice> Kernel::make_block_device(disk::Device& device, Scheduler scheduler, std::string name) {
  if (device.members() == 0 || config_.md_layering != MdLayering::Raid1d) {
    return std::make_unique<BlockQueue>(sim_, config_, device, scheduler, std::move(name));
  }
  OsTask& raid1d = new_task("md" + std::to_string(mds_.size()) + "_raid1d");
  auto md = std::make_unique<MdRaid1>(sim_, config_, device, scheduler, raid1d);
  mds_.push_back(md.get());
  return md;
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
  inode.bdi = bdi_of(volume);
  const auto vol = static_cast<std::size_t>(inode.bdi);
  inode.first_sector = next_extent_[vol];
  next_extent_[vol] += max_blocks * kSectorsPerBlock;
  inode.size = blocks;
  inode.grow(blocks);
  inode.allocated = blocks;
  return inode.id;
}

std::int64_t Kernel::size_blocks(FileId file) const { return cache_.inode(file).size; }

// ---- read completion (the page cache's writes complete in writepages.cpp) ----

// mpage_end_io for a read: the blocks are uptodate and unlocked; a block
// truncated meanwhile is freed.
void Kernel::bio_done(Bio& bio) {
  Inode& in = cache_.inode(bio.file);
  const std::int64_t blocks = bio.bytes / kBlockBytes;
  for (std::int64_t b = bio.first_block; b < bio.first_block + blocks; ++b) {
    CachedBlock& block = in.blocks[static_cast<std::size_t>(b)];
    cache_.left_device(in, b, false);
    cache_.unlock_after_read(block);
    if (b >= in.size && !block.has(kDirty)) {
      cache_.release(in, b);  // truncated while being read
    } else if (!block.has(kDirty) && !block.has(kWriteback)) {
      cache_.lru_add(block);
    }
    cache_.wake_up_page(in.id, b);
  }
  bios_.put(bio);
}

void Kernel::bio_dispatched(Bio& bio) {
  cache_.bio_at_device(cache_.inode(bio.file), bio.first_block, bio.bytes / kBlockBytes, false);
}

// ---- helpers that may sleep ----

// The slow path of page allocation: nothing is reclaimable (every cached
// page is dirty or under I/O), so kick the flusher, as reclaim does, and wait
// for a page to come clean. False if another task cached the block meanwhile.
sim::Task<bool> Kernel::allocate_block(OsTask* task, Inode& in, std::int64_t b) {
  const auto held = in_layer(task, IoLayer::Reclaim);
  for (;;) {
    if (in.blocks[static_cast<std::size_t>(b)].has(kCached)) co_return false;
    if (cache_.allocate(in, b)) co_return true;
    for (auto& bdi : bdis_) bdi->wake_background();
    co_await cache_.reclaimable_wait().wait();
  }
}

// __mark_inode_dirty(I_DIRTY_PAGES): the first dirty page puts the inode on
// b_dirty with dirtied_when = now; an inode being written back is requeued by
// its writer instead.
void Kernel::mark_inode_dirty(Inode& in) {
  if (in.dirty) return;
  in.dirty = true;
  if (in.i_sync) return;
  in.dirtied_when = sim_.now();
  bdi(in).inode_dirtied(in);
}

// ---- read(2) ----

sim::Task<> Kernel::read(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = cache_.inode(file);
  const std::int64_t end = std::min(block + count, in.size);
  if (block >= end) co_return;

  // Readahead window (ondemand_readahead, simplified).
  const std::int64_t max_window = std::max<std::int64_t>(config_.read_ahead_kb / kBlockBytes, 0);
  const bool sequential = block == 0 || block == in.ra_next;
  if (sequential && max_window > 0) {
    const std::int64_t first = std::min(4 * (end - block), max_window);
    in.ra_window =
        in.ra_window == 0 ? first : std::min(in.ra_window * (in.ra_window < max_window / 4 ? 4 : 2), max_window);
  } else {
    in.ra_window = 0;
  }
  in.ra_next = end;

  // Find the first missing block of the request; a full hit costs no event.
  std::int64_t miss = -1;
  for (std::int64_t b = block; b < end; ++b) {
    CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (!cb.has(kCached)) {
      if (miss < 0) miss = b;
    } else if (!cb.has(kLocked)) {
      cache_.touch(cb);
      ++counts_.read_hits;
    }
  }
  if (miss >= 0) {
    const std::int64_t window_end = std::min(in.size, std::max(end, block + in.ra_window));
    BlockDevice& q = bdi(in).queue();
    Plug plug;
    Bio* bio = nullptr;
    for (std::int64_t b = miss; b < window_end; ++b) {
      CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
      if (cb.has(kCached)) continue;
      if (!cache_.allocate(in, b) && !co_await allocate_block(&task, in, b)) continue;  // another task has it
      cache_.lock_for_read(cb);
      if (b < end) {
        ++counts_.read_misses;
      } else {
        ++counts_.readahead_blocks;
      }
      if (extends(bio, b, q)) {
        bio->bytes += kBlockBytes;
        continue;
      }
      if (bio != nullptr) co_await q.submit_bio(*bio, &plug, &task.io_layers);
      bio = &bios_.get(*this);
      bio->op = disk::Op::Read;
      bio->sync = true;
      bio->pid = task.pid;
      bio->file = in.id;
      bio->first_block = b;
      bio->sector = in.sector_of(b);
      bio->bytes = kBlockBytes;
    }
    if (bio != nullptr) co_await q.submit_bio(*bio, &plug, &task.io_layers);
    q.unplug(plug);
  }
  // Wait for the blocks of the request that are being read (ours or another task's).
  for (std::int64_t b = block; b < end; ++b) {
    if (in.blocks[static_cast<std::size_t>(b)].has(kLocked)) co_await wait_on_page_bit(cache_, &task, in, b, kLocked);
  }
}

// ---- write(2) ----

// file_update_time and ext4_da_write_begin / write_end each hold a journal
// handle; here one handle covers the call, from the mtime update through the
// page grabs (where a stable page or a locked page may sleep with it held).
// A page allocation that must wait for reclaim lets the handle go first:
// ext4 grabs with AOP_FLAG_NOFS, never waiting for fs writeback with a handle.
sim::Task<> Kernel::write(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = cache_.inode(file);
  if (block + count > in.max_blocks) throw std::out_of_range("write past the extent of " + in.name);
  in.grow(block + count);
  const bool needs_handle = journaled(journal_, in);
  Jbd2Journal::Handle handle;
  if (needs_handle) handle = co_await journal_.start_handle(&task);
  std::int64_t newly_dirty = 0;
  for (std::int64_t b = block; b < block + count; ++b) {
    CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (b >= in.size) in.size = b + 1;  // a delayed block: allocated at writeback
    // A whole 8 kB block: no read before the overwrite.
    if (!cb.has(kCached) && !cache_.allocate(in, b)) {
      handle.stop();
      co_await allocate_block(&task, in, b);
      if (needs_handle) handle = co_await journal_.start_handle(&task);
    }
    if (cb.has(kLocked)) co_await wait_on_page_bit(cache_, &task, in, b, kLocked);
    if (config_.stable_pages && cb.has(kWriteback)) co_await wait_on_page_bit(cache_, &task, in, b, kWriteback);
    if (!cb.has(kDirty)) {
      cache_.set_dirty(in, b);
      ++counts_.dirtied;
      ++newly_dirty;
      mark_inode_dirty(in);
    } else {
      cache_.touch(cb);
    }
  }
  in.sync_tid = journal_.running_tid();  // mtime
  handle.stop();
  counts_.peak_dirty = std::max(counts_.peak_dirty, cache_.dirty() + cache_.writeback());
  if (throttle_->dirtied(task, newly_dirty * kPagesPerBlock)) {
    const auto held = in_layer(&task, IoLayer::BalanceDirtyPages);
    co_await throttle_->balance(task, *bdis_[0]);
  }
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
