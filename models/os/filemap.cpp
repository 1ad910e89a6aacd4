// models/os/filemap.cpp
#include "models/os/filemap.h"

#include <algorithm>
#include <stdexcept>

#include "models/os/writepages.h"

namespace ckptsim::os {

// ---- read completion (the page cache's writes complete in writepages.cpp) ----

// mpage_end_io for a read: the blocks are uptodate and unlocked; a block
// truncated meanwhile is freed.
void Filemap::bio_done(Bio& bio) {
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

void Filemap::bio_dispatched(Bio& bio) {
  cache_.bio_at_device(cache_.inode(bio.file), bio.first_block, bio.bytes / kBlockBytes, false);
}

// ---- helpers that may sleep ----

// The slow path of page allocation: nothing is reclaimable (every cached
// page is dirty or under I/O), so kick the flusher, as reclaim does, and wait
// for a page to come clean. False if another task cached the block meanwhile.
sim::Task<bool> Filemap::allocate_block(OsTask* task, Inode& in, std::int64_t b) {
  const auto held = in_layer(task, IoLayer::Reclaim);
  for (;;) {
    if (in.blocks[static_cast<std::size_t>(b)].has(kCached)) co_return false;
    if (cache_.allocate(in, b)) co_return true;
    devices_.wake_background();
    co_await cache_.reclaimable_wait().wait();
  }
}

// __mark_inode_dirty(I_DIRTY_PAGES): the first dirty page puts the inode on
// b_dirty with dirtied_when = now; an inode being written back is requeued by
// its writer instead.
void Filemap::mark_inode_dirty(Inode& in) {
  if (in.dirty) return;
  in.dirty = true;
  if (in.i_sync) return;
  in.dirtied_when = sim_.now();
  devices_.of(in).inode_dirtied(in);
}

// ---- read(2) ----

sim::Task<> Filemap::read(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
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
    BlockDevice& q = devices_.of(in).queue();
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
sim::Task<> Filemap::write(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
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
  if (throttle_.dirtied(task, newly_dirty * kPagesPerBlock)) {
    const auto held = in_layer(&task, IoLayer::BalanceDirtyPages);
    co_await throttle_.balance(task, devices_.at(0));
  }
}

}  // namespace ckptsim::os
