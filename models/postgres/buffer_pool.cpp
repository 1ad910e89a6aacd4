// models/postgres/buffer_pool.cpp
//
// Descriptors, mapping table, freelist and clock sweep (freelist.c's
// StrategyGetBuffer / StrategySyncStart, buf_table.c).
#include "models/postgres/buffer_pool.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace ckptsim::postgres {

ContentLocks::ContentLocks(sim::Simulator& sim, std::size_t n) : n_(n), locks_(alloc_.allocate(n)) {
  for (std::size_t i = 0; i < n_; ++i) std::construct_at(locks_ + i, sim);
}

ContentLocks::~ContentLocks() {
  std::destroy_n(locks_, n_);
  alloc_.deallocate(locks_, n_);
}

BufferPool::BufferPool(sim::Simulator& sim, std::int64_t nbuffers)
    : states_(static_cast<std::size_t>(nbuffers)),
      descs_(static_cast<std::size_t>(nbuffers)),
      durability_(static_cast<std::size_t>(nbuffers)),
      content_locks_(sim, static_cast<std::size_t>(nbuffers)),
      next_free_(static_cast<std::size_t>(nbuffers)) {
  if (nbuffers < 16) throw std::invalid_argument("shared_buffers must hold at least 16 buffers");
  // StrategyInitialize: every buffer on the freelist, in id order.
  for (std::int64_t i = 0; i < nbuffers; ++i) {
    next_free_[static_cast<std::size_t>(i)] = i + 1 < nbuffers ? static_cast<BufferId>(i + 1) : -1;
  }
  first_free_ = 0;
}

void BufferPool::insert(const BufferTag& tag, BufferId id) {
  // MaxBlockNumber (block.h): a relation holds at most 2^32 - 1 blocks.
  if (tag.block < 0 || tag.block > 0xFFFFFFFELL) throw std::logic_error("buffer tag beyond MaxBlockNumber");
  if (tag.rel < 0) throw std::logic_error("buffer tag without a relation");
  const auto rel = static_cast<std::size_t>(tag.rel);
  if (rel >= map_.size()) map_.resize(rel + 1);
  std::vector<BufferId>& blocks = map_[rel];
  const auto block = static_cast<std::size_t>(tag.block);
  if (block >= blocks.size()) {
    // Grown by at least an eighth of its capacity: a relation extended a
    // block at a time reallocates O(log n) times, not at every block.
    const std::size_t grown = blocks.capacity() + std::max<std::size_t>(blocks.capacity() / 8, 64);
    if (block >= blocks.capacity()) blocks.reserve(std::max(block + 1, grown));
    blocks.resize(block + 1, -1);
  }
  if (blocks[block] >= 0) throw std::logic_error("buffer tag mapped twice");
  blocks[block] = id;
}

void BufferPool::erase(const BufferTag& tag) {
  const auto rel = static_cast<std::size_t>(tag.rel);
  if (rel >= map_.size()) return;
  std::vector<BufferId>& blocks = map_[rel];
  const auto block = static_cast<std::uint64_t>(tag.block);
  if (block < blocks.size()) blocks[block] = -1;
}

void BufferPool::retag(BufferId id, const BufferTag& tag) {
  BufferDesc& b = mutable_desc(id);
  if (b.tag_valid) erase(b.tag());
  b.set_tag(tag);
  b.tag_valid = true;
  b.dirty = b.just_dirtied = b.checkpoint_needed = false;
  mutable_state(id).usage_count = 1;
  insert(tag, id);
}

void BufferPool::pin(BufferId id, bool bump) noexcept {
  ++mutable_desc(id).refcount;
  BufferState& s = mutable_state(id);
  if (bump && s.usage_count < kMaxUsageCount) ++s.usage_count;
}

BufferId BufferPool::strategy_get_buffer() {
  if (wake_bgwriter_) {
    // The bgwriter asked to be woken by the first allocation after it hibernated.
    auto wake = std::move(wake_bgwriter_);
    wake_bgwriter_ = nullptr;
    wake();
  }
  ++num_allocs_;
  while (first_free_ >= 0) {
    const BufferId id = first_free_;
    first_free_ = next_free_[static_cast<std::size_t>(id)];
    next_free_[static_cast<std::size_t>(id)] = -2;  // not on the list
    if (desc(id).refcount == 0 && state(id).usage_count == 0) return id;
  }
  std::int64_t tries = size();
  for (;;) {
    const BufferId id = next_victim_;
    if (++next_victim_ == size()) {
      next_victim_ = 0;
      ++complete_passes_;
    }
    if (desc(id).refcount == 0) {
      BufferState& s = mutable_state(id);
      if (s.usage_count > 0) {
        --s.usage_count;
        tries = size();
      } else {
        return id;
      }
    } else if (--tries == 0) {
      throw std::runtime_error("no unpinned buffers available");
    }
  }
}

void BufferPool::free_buffer(BufferId id) {
  if (next_free_[static_cast<std::size_t>(id)] != -2) return;  // already on the list
  next_free_[static_cast<std::size_t>(id)] = first_free_;
  first_free_ = id;
}

BufferPool::SyncStart BufferPool::strategy_sync_start() noexcept {
  const SyncStart s{next_victim_, complete_passes_, num_allocs_};
  num_allocs_ = 0;
  return s;
}

}  // namespace ckptsim::postgres
