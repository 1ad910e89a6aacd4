// models/os/page_cache.cpp
//
// Page-cache state transitions and the two-list reclaim (see page_cache.h).
#include "models/os/page_cache.h"

#include <stdexcept>

#include <fmt/format.h>

namespace ckptsim::os {

PageCache::PageCache(sim::Simulator& sim, std::int64_t capacity_blocks)
    : capacity_(capacity_blocks), sim_(sim), reclaimable_wait_(sim) {
  for (std::size_t i = 0; i < kWaitqueues; ++i) waitqueues_.push_back(std::make_unique<sim::Condition>(sim));
}

PageCache::~PageCache() {
  inactive_.clear();
  active_.clear();
}

Inode& PageCache::add_file(std::string name, Volume volume, std::int64_t max_blocks) {
  const auto id = static_cast<FileId>(inodes_.size());
  inodes_.push_back(std::make_unique<Inode>(sim_, id, std::move(name), volume, max_blocks));
  return *inodes_.back();
}

void PageCache::forget_blocks(Inode& inode) {
  if (inode.nr_cached > 0 || inode.nr_dirty > 0 || inode.nr_writeback > 0) {
    throw std::logic_error("forget_blocks: " + inode.name + " still has pages");
  }
  inode.max_blocks = 0;
  std::vector<CachedBlock>().swap(inode.blocks);
  std::vector<std::uint64_t>().swap(inode.dirty_bits);
}

// ---- LRU ----

void PageCache::lru_add(CachedBlock& block) {
  if (block.has(kOnLru)) return;
  block.flags = static_cast<std::uint8_t>((block.flags | kOnLru) & ~kActive);
  inactive_.push_front(block);
  if (reclaimable_wait_.waiters() > 0) reclaimable_wait_.notify_all();
}

void PageCache::lru_remove(CachedBlock& block) {
  if (!block.has(kOnLru)) return;
  (block.has(kActive) ? active_ : inactive_).erase(LruList::s_iterator_to(block));
  block.flags = static_cast<std::uint8_t>(block.flags & ~(kOnLru | kActive));
}

void PageCache::touch(CachedBlock& block) {
  // mark_page_accessed: the second reference of an inactive page activates it.
  if (block.has(kOnLru) && !block.has(kActive) && block.has(kReferenced)) {
    inactive_.erase(LruList::s_iterator_to(block));
    active_.push_front(block);
    block.flags = static_cast<std::uint8_t>((block.flags | kActive) & ~kReferenced);
    return;
  }
  block.flags |= kReferenced;
}

bool PageCache::access_idle(Inode& inode, std::int64_t b) {
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  if (!block.has(kCached)) {
    if (!allocate(inode, b)) return false;
    lru_add(block);
  }
  touch(block);
  return true;
}

bool PageCache::reclaim_one() {
  for (;;) {
    if (inactive_.empty()) {
      if (active_.empty()) return false;
      // Refill inactive from the active tail (shrink_active_list).
      const std::size_t move = std::max<std::size_t>(1, active_.size() / 2);
      for (std::size_t i = 0; i < move; ++i) {
        CachedBlock& b = active_.back();
        active_.pop_back();
        b.flags = static_cast<std::uint8_t>(b.flags & ~(kActive | kReferenced));
        inactive_.push_front(b);
      }
    }
    CachedBlock& victim = inactive_.back();
    inactive_.pop_back();
    if (victim.has(kReferenced)) {
      // Second chance: referenced since it entered the list.
      victim.flags = static_cast<std::uint8_t>((victim.flags | kActive) & ~kReferenced);
      active_.push_front(victim);
      continue;
    }
    victim.flags = static_cast<std::uint8_t>(victim.flags & ~(kOnLru | kActive));
    Inode& owner = inode(victim.file);
    release(owner, &victim - owner.blocks.data());
    return true;
  }
}

bool PageCache::allocate(Inode& inode, std::int64_t b) {
  if (nr_cached_ >= capacity_ && !reclaim_one()) return false;
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  block.flags = kCached;
  ++nr_cached_;
  ++inode.nr_cached;
  return true;
}

void PageCache::release(Inode& inode, std::int64_t b) {
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  if (!block.has(kCached)) return;
  lru_remove(block);
  block.flags = 0;
  --nr_cached_;
  --inode.nr_cached;
}

// ---- dirty / writeback ----

void PageCache::set_dirty(Inode& inode, std::int64_t b) {
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  lru_remove(block);
  block.flags |= kDirty;
  inode.set_dirty_bit(b);
  ++inode.nr_dirty;
  ++nr_dirty_;
}

void PageCache::clear_dirty(Inode& inode, std::int64_t b) {
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  block.flags = static_cast<std::uint8_t>(block.flags & ~kDirty);
  inode.clear_dirty_bit(b);
  --inode.nr_dirty;
  --nr_dirty_;
}

void PageCache::start_writeback(Inode& inode, std::int64_t b) {
  clear_dirty(inode, b);
  inode.blocks[static_cast<std::size_t>(b)].flags |= kWriteback;
  ++inode.nr_writeback;
  ++nr_writeback_;
}

void PageCache::end_writeback(Inode& inode, std::int64_t b) {
  CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
  block.flags = static_cast<std::uint8_t>(block.flags & ~kWriteback);
  --inode.nr_writeback;
  --nr_writeback_;
  if (!block.has(kDirty) && !block.has(kLocked)) lru_add(block);
}

// ---- accounting ----

bool PageCache::check(std::string* why) const {
  std::int64_t cached = 0, dirty = 0, writeback = 0, on_lru = 0;
  for (const auto& inode : inodes_) {
    std::int64_t c = 0, d = 0, w = 0;
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(inode->blocks.size()); ++b) {
      const CachedBlock& block = inode->blocks[static_cast<std::size_t>(b)];
      c += block.has(kCached);
      d += block.has(kDirty);
      w += block.has(kWriteback);
      on_lru += block.has(kOnLru);
      const bool idle = block.has(kCached) && !block.has(kDirty) && !block.has(kWriteback) && !block.has(kLocked);
      if (block.has(kOnLru) != idle) {
        if (why)
          *why = fmt::format("{} block {}: on the LRU is {} but idle is {}", inode->name, b, block.has(kOnLru), idle);
        return false;
      }
      if (block.has(kDirty) != inode->is_dirty_block(b)) {
        if (why) *why = fmt::format("{} block {}: dirty flag and dirty bitmap disagree", inode->name, b);
        return false;
      }
      if ((block.has(kDirty) || block.has(kWriteback)) && !block.has(kCached)) {
        if (why) *why = fmt::format("{} block {}: dirty or under writeback but not cached", inode->name, b);
        return false;
      }
    }
    if (c != inode->nr_cached || d != inode->nr_dirty || w != inode->nr_writeback) {
      if (why) {
        *why = fmt::format("{}: counted cached/dirty/writeback {}/{}/{} but the file says {}/{}/{}", inode->name, c, d,
                           w, inode->nr_cached, inode->nr_dirty, inode->nr_writeback);
      }
      return false;
    }
    cached += c;
    dirty += d;
    writeback += w;
  }
  if (cached != nr_cached_ || dirty != nr_dirty_ || writeback != nr_writeback_ ||
      on_lru != static_cast<std::int64_t>(lru_size()) || nr_cached_ > capacity_) {
    if (why) {
      *why =
          fmt::format("page cache: counted cached/dirty/writeback/lru {}/{}/{}/{}, counters {}/{}/{}/{}, capacity {}",
                      cached, dirty, writeback, on_lru, nr_cached_, nr_dirty_, nr_writeback_, lru_size(), capacity_);
    }
    return false;
  }
  return true;
}

sim::Task<> wait_on_page_bit(PageCache& cache, OsTask* task, Inode& in, std::int64_t b, std::uint8_t flag) {
  const CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
  while (cb.has(flag)) {
    const auto held = in_layer(task, cb.has(kAtDevice) ? IoLayer::Device : IoLayer::Scheduler);
    co_await cache.waitqueue(in.id, b).wait();
  }
}

// A wait for this inode's writeback: queued while any of it is not yet at the device.
sim::Task<> wait_on_writeback(OsTask& task, Inode& in) {
  while (in.nr_writeback > 0) {
    const auto held =
        in_layer(&task, in.nr_writeback > in.nr_writeback_at_device ? IoLayer::Scheduler : IoLayer::Device);
    co_await in.writeback_wait.wait();
  }
}

}  // namespace ckptsim::os
