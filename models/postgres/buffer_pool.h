// models/postgres/buffer_pool.h
//
// Shared buffers: the descriptors, the buffer mapping table, the freelist
// and the clock sweep (buf_internals.h, buf_table.c, freelist.c).
//
// A buffer's header is kept in two arrays. Its state (BufferState: the
// usage_count, 0..BM_MAX_USAGE_COUNT = 5, and the BM_VALID and
// BM_IO_IN_PROGRESS flags) is what a page hit reads and changes: one byte per
// buffer, so that the hits on 2 GB of shared buffers touch 256 kB, which
// stays in the CPU's L2 cache, and not 4 MB of descriptors. Its descriptor
// (BufferDesc) keeps the rest the write path needs: the tag (relation, block;
// the main fork only), the pin count, the BM_DIRTY / BM_JUST_DIRTIED /
// BM_CHECKPOINT_NEEDED flags. The page LSN lives with the page (Relations),
// so it survives eviction. The content locks (BufferDescriptorGetContentLock)
// are sim::LWLocks in an array of their own. Only the buffer manager changes
// a header (the pool's own pin / retag / sweep, and bufmgr's I/O and dirty
// flags); others get a const view.
//
// StrategyGetBuffer: the freelist first (every buffer starts there), then the
// clock hand sweeps: a pinned buffer is skipped, an unpinned one with
// usage_count > 0 is decremented, the first unpinned one at 0 is the
// victim. Every call counts one allocation (numBufferAllocs) and every wrap
// of the hand one complete pass; StrategySyncStart hands both to the
// bgwriter and resets the allocation count. A hibernating bgwriter is woken
// by the next allocation.
//
// The mapping table (buf_table.c's shared hash) is, here, one dense array
// per relation from block number to buffer id: a lookup is one array read,
// with no hashing and no probe run, and the blocks a workload touches most
// (an index's upper levels, a small table) sit together in a few cache
// lines. The lookup is the hot path of every page access. An array grows
// when a block beyond its end is first mapped (a relation extends, or a
// larger block is read), by at least an eighth so that extension costs
// amortized O(1). Left out: ring buffers (BufferAccessStrategy), mapping
// partitions and their locks, BM_PERMANENT (every relation is logged).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/lwlock.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

using RelationId = std::int32_t;
using BufferId = std::int32_t;
using Lsn = std::int64_t;  // a WAL position in bytes

inline constexpr int kMaxUsageCount = 5;  // BM_MAX_USAGE_COUNT

struct BufferTag {
  RelationId rel = -1;
  std::int64_t block = -1;
  bool operator==(const BufferTag&) const = default;
};

// The part of buf_internals.h's state word that every page hit reads.
struct BufferState {
  std::uint8_t usage_count : 3 = 0;
  bool valid : 1 = false;
  bool io_in_progress : 1 = false;
};

static_assert(sizeof(BufferState) == 1, "one byte per buffer");

// The tag is kept as (relation, BlockNumber), 32 bits each as in
// PostgreSQL's BufferTag, so that a descriptor is 16 bytes.
struct BufferDesc {
  RelationId rel = -1;
  std::uint32_t block = 0;
  std::int32_t refcount = 0;
  bool tag_valid = false;
  bool dirty = false;
  bool just_dirtied = false;
  bool checkpoint_needed = false;

  BufferTag tag() const noexcept { return BufferTag{rel, static_cast<std::int64_t>(block)}; }
  void set_tag(const BufferTag& tag) noexcept {
    rel = tag.rel;
    block = static_cast<std::uint32_t>(tag.block);
  }
};

static_assert(sizeof(BufferDesc) == 16);

// Durability bookkeeping (not PostgreSQL state), beside the descriptors rather
// than in them: the LSN of the first change not yet handed to the kernel, and
// of the write in progress. Only dirtying and writing a buffer touch it, so
// the descriptors that pins read stay small.
struct BufferDurability {
  Lsn dirty_since = 0;
  Lsn writing_since = 0;
};

// One LWLock per buffer, constructed in place: an LWLock neither moves nor
// default-constructs, so a std::vector cannot hold them.
class ContentLocks {
 public:
  ContentLocks(sim::Simulator& sim, std::size_t n);
  ~ContentLocks();
  ContentLocks(const ContentLocks&) = delete;
  ContentLocks& operator=(const ContentLocks&) = delete;
  sim::LWLock& operator[](BufferId id) noexcept { return locks_[static_cast<std::size_t>(id)]; }

 private:
  std::allocator<sim::LWLock> alloc_;
  std::size_t n_;
  sim::LWLock* locks_;
};

class BufferPool {
 public:
  BufferPool(sim::Simulator& sim, std::int64_t nbuffers);
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  std::int32_t size() const noexcept { return static_cast<std::int32_t>(descs_.size()); }
  const BufferDesc& desc(BufferId id) const { return descs_[static_cast<std::size_t>(id)]; }
  const BufferState& state(BufferId id) const { return states_[static_cast<std::size_t>(id)]; }
  const BufferDurability& durability(BufferId id) const { return durability_[static_cast<std::size_t>(id)]; }

  // Buffer mapping table.
  BufferId lookup(const BufferTag& tag) const noexcept {
    const auto rel = static_cast<std::size_t>(tag.rel);  // -1 wraps beyond every relation
    if (rel >= map_.size()) return -1;
    const std::vector<BufferId>& blocks = map_[rel];
    const auto block = static_cast<std::uint64_t>(tag.block);
    return block < blocks.size() ? blocks[block] : -1;
  }
  void insert(const BufferTag& tag, BufferId id);
  void erase(const BufferTag& tag);
  // BufferAlloc's retagging of a claimed victim: the old mapping removed, the
  // new one entered, clean, with usage_count 1. The caller sets valid and
  // io_in_progress.
  void retag(BufferId id, const BufferTag& tag);

  // PinBuffer: usage_count + 1 (capped) unless `bump` is false (a victim being claimed).
  void pin(BufferId id, bool bump = true) noexcept;
  void unpin(BufferId id) noexcept { --mutable_desc(id).refcount; }
  // PinBuffer and UnpinBuffer with nothing between them: the pin count ends
  // where it began, so only usage_count changes (and the descriptor is not read).
  void pin_and_unpin(BufferId id) noexcept {
    BufferState& s = mutable_state(id);
    if (s.usage_count < kMaxUsageCount) ++s.usage_count;
  }

  // StrategyGetBuffer without a strategy: the victim's id. Does not pin it.
  // Throws if every buffer is pinned ("no unpinned buffers available").
  BufferId strategy_get_buffer();
  // Puts an invalidated buffer back on the freelist (StrategyFreeBuffer).
  void free_buffer(BufferId id);

  struct SyncStart {
    BufferId hand;
    std::uint32_t complete_passes;
    std::uint32_t num_allocs;
  };
  // StrategySyncStart: the clock hand, complete passes, and the allocations
  // since the previous call (reset).
  SyncStart strategy_sync_start() noexcept;
  // StrategyNotifyBgWriter: `wake` is called (once) by the next allocation.
  void notify_bgwriter(std::function<void()> wake) { wake_bgwriter_ = std::move(wake); }

  BufferId clock_hand() const noexcept { return next_victim_; }
  std::uint32_t complete_passes() const noexcept { return complete_passes_; }

 private:
  friend class BufferManager;       // bufmgr.c: I/O flags, dirty flags, content locks
  friend struct BufferPoolTesting;  // tests: states a run reaches only slowly

  BufferDesc& mutable_desc(BufferId id) { return descs_[static_cast<std::size_t>(id)]; }
  BufferState& mutable_state(BufferId id) { return states_[static_cast<std::size_t>(id)]; }
  BufferDurability& mutable_durability(BufferId id) { return durability_[static_cast<std::size_t>(id)]; }
  sim::LWLock& content_lock(BufferId id) noexcept { return content_locks_[id]; }

  std::vector<BufferState> states_;
  std::vector<BufferDesc> descs_;
  std::vector<BufferDurability> durability_;
  ContentLocks content_locks_;
  // Mapping: map_[rel][block] is the buffer holding that block, or -1.
  std::vector<std::vector<BufferId>> map_;
  // Freelist: a singly linked list through next_free_.
  std::vector<BufferId> next_free_;
  BufferId first_free_ = -1;
  BufferId next_victim_ = 0;
  std::uint32_t complete_passes_ = 0;
  std::uint32_t num_allocs_ = 0;
  std::function<void()> wake_bgwriter_;
};

}  // namespace ckptsim::postgres
