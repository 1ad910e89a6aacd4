// models/postgres/buffer_pool.cpp
//
// Descriptors, mapping table, freelist and clock sweep (freelist.c's
// StrategyGetBuffer / StrategySyncStart, buf_table.c).
#include "models/postgres/buffer_pool.h"

#include <bit>
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
    : descs_(static_cast<std::size_t>(nbuffers)),
      durability_(static_cast<std::size_t>(nbuffers)),
      content_locks_(sim, static_cast<std::size_t>(nbuffers)),
      next_free_(static_cast<std::size_t>(nbuffers)) {
  if (nbuffers < 16) throw std::invalid_argument("shared_buffers must hold at least 16 buffers");
  const std::size_t slots = std::bit_ceil(static_cast<std::size_t>(nbuffers) * 2);
  table_.assign(slots, Slot{});
  mask_ = slots - 1;
  // StrategyInitialize: every buffer on the freelist, in id order.
  for (std::int64_t i = 0; i < nbuffers; ++i) {
    next_free_[static_cast<std::size_t>(i)] = i + 1 < nbuffers ? static_cast<BufferId>(i + 1) : -1;
  }
  first_free_ = 0;
}

std::size_t BufferPool::slot_of(const BufferTag& tag) const noexcept {
  // A 64-bit mix of (relation, block): blocks of one relation spread over the table.
  std::uint64_t h = static_cast<std::uint64_t>(tag.block) * 0x9E3779B97F4A7C15ULL;
  h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag.rel)) * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 29;
  return static_cast<std::size_t>(h) & mask_;
}

BufferId BufferPool::lookup(const BufferTag& tag) const noexcept {
  for (std::size_t s = slot_of(tag);; s = (s + 1) & mask_) {
    const Slot& slot = table_[s];
    if (slot.id < 0) return -1;
    if (slot.holds(tag)) return slot.id;
  }
}

void BufferPool::insert(const BufferTag& tag, BufferId id) {
  // MaxBlockNumber (block.h): a relation holds at most 2^32 - 1 blocks.
  if (tag.block < 0 || tag.block > 0xFFFFFFFELL) throw std::logic_error("buffer tag beyond MaxBlockNumber");
  std::size_t s = slot_of(tag);
  while (table_[s].id >= 0) s = (s + 1) & mask_;
  table_[s] = Slot{tag.rel, static_cast<std::uint32_t>(tag.block), id};
}

void BufferPool::erase(const BufferTag& tag) {
  std::size_t s = slot_of(tag);
  while (table_[s].id >= 0 && !table_[s].holds(tag)) s = (s + 1) & mask_;
  if (table_[s].id < 0) return;
  // Backward-shift deletion: pull later entries of the probe run into the hole.
  std::size_t hole = s;
  for (std::size_t j = (hole + 1) & mask_; table_[j].id >= 0; j = (j + 1) & mask_) {
    const std::size_t home = slot_of(table_[j].tag());
    // Move j into the hole unless its home lies cyclically in (hole, j].
    const bool home_after_hole = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!home_after_hole) {
      table_[hole] = table_[j];
      hole = j;
    }
  }
  table_[hole] = Slot{};
}

void BufferPool::retag(BufferId id, const BufferTag& tag) {
  BufferDesc& b = mutable_desc(id);
  if (b.tag_valid) erase(b.tag);
  b.tag = tag;
  b.tag_valid = true;
  b.dirty = b.just_dirtied = b.checkpoint_needed = false;
  b.usage_count = 1;
  insert(tag, id);
}

void BufferPool::pin(BufferId id, bool bump) noexcept {
  BufferDesc& b = mutable_desc(id);
  ++b.refcount;
  if (bump && b.usage_count < kMaxUsageCount) ++b.usage_count;
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
    const BufferDesc& b = desc(id);
    if (b.refcount == 0 && b.usage_count == 0) return id;
  }
  std::int64_t tries = size();
  for (;;) {
    const BufferId id = next_victim_;
    if (++next_victim_ == size()) {
      next_victim_ = 0;
      ++complete_passes_;
    }
    BufferDesc& b = mutable_desc(id);
    if (b.refcount == 0) {
      if (b.usage_count > 0) {
        --b.usage_count;
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
