// models/os/page_cache.h
//
// The Linux page cache of the files PostgreSQL uses (mm/filemap.c,
// mm/vmscan.c, struct address_space / struct inode), at PostgreSQL's 8 kB
// block: the two 4 kB pages of a block are always read, dirtied and written
// together, so one entry holds both and meminfo counts it as 2 pages.
//
// Per file: a flat array of block states (cached, dirty, under writeback,
// locked for a read in flight, referenced, active), a bitmap of dirty blocks
// for the ascending scans of writeback, counters, and the inode fields of
// writeback (dirtied_when, writeback_index, I_SYNC, list membership). The
// array has room for the file's whole extent from its creation, so that its
// entries never move (the LRU lists link them), but holds entries only up to
// the largest size the file has had: the room of an extent never used (a
// 1 GB segment of a small table) is never written, and so costs no memory.
//
// Reclaim: clean blocks sit on two intrusive LRU lists, inactive and active,
// as in 2.6.28+ (2.9 of docs/reference/os-disk-model.md): a new block enters inactive; a
// second reference while inactive promotes it; the reclaimer frees from the
// inactive tail, giving referenced blocks a second chance on the active list,
// and refills inactive from the active tail when it runs dry. Only clean,
// unlocked blocks not under writeback are on the lists, so a scan never
// meets a dirty page: a block leaves the lists when it is dirtied or read
// and comes back (at the inactive head) when its write or read completes.
//
// Left out: kswapd and watermarks (reclaim is direct and costs no time),
// reclaim-on-writeback-completion marks, mapped pages, shmem (shared_buffers
// is fixed anon memory, never reclaimed), partial-page writes.
#pragma once

#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/intrusive/list.hpp>

#include "models/os/file_system.h"
#include "sim/condition.h"
#include "sim/process.h"
#include "sim/simulator.h"

namespace ckptsim::os {

inline constexpr std::int64_t kPagesPerBlock = 2;  // 4 kB pages in a PostgreSQL block
inline constexpr std::int64_t kSectorsPerBlock = kBlockBytes / 512;

enum BlockFlag : std::uint8_t {
  kCached = 1,  // in the page cache and uptodate (or being read: kLocked)
  kDirty = 2,
  kWriteback = 4,
  kLocked = 8,  // a read is in flight
  kReferenced = 16,
  kActive = 32,
  kOnLru = 64,
  kAtDevice = 128,  // its read or write has been dispatched to the device
};

using LruHook = boost::intrusive::list_member_hook<boost::intrusive::link_mode<boost::intrusive::normal_link>>;

struct CachedBlock {
  LruHook lru;
  FileId file = -1;
  std::uint8_t flags = 0;
  bool has(std::uint8_t f) const { return (flags & f) != 0; }
};

using LruList =
    boost::intrusive::list<CachedBlock, boost::intrusive::member_hook<CachedBlock, LruHook, &CachedBlock::lru>,
                           boost::intrusive::constant_time_size<true>>;

enum class WbList : std::uint8_t { None, Dirty, Io, MoreIo };

struct Inode {
  Inode(sim::Simulator& sim, FileId id_, std::string name_, Volume volume_, std::int64_t max)
      : id(id_),
        name(std::move(name_)),
        volume(volume_),
        max_blocks(max),
        dirty_bits(static_cast<std::size_t>((max + 63) / 64), 0),
        writeback_wait(sim) {
    blocks.reserve(static_cast<std::size_t>(max));
  }

  // Entries for blocks [0, n), n <= max_blocks: made within the room
  // reserved at creation, so none that exists moves.
  void grow(std::int64_t n) {
    if (n > max_blocks) throw std::logic_error("page cache: " + name + " grown past its extent");
    for (auto b = static_cast<std::int64_t>(blocks.size()); b < n; ++b) blocks.emplace_back().file = id;
  }

  FileId id;
  std::string name;
  Volume volume;
  int bdi = 0;                    // index of the backing device's writeback state
  std::int64_t first_sector = 0;  // the file's extent on its device
  std::int64_t size = 0;          // blocks
  std::int64_t max_blocks;
  std::vector<CachedBlock> blocks;
  std::vector<std::uint64_t> dirty_bits;
  std::int64_t nr_cached = 0, nr_dirty = 0, nr_writeback = 0;

  // Writeback (fs/fs-writeback.c)
  bool dirty = false;  // I_DIRTY_PAGES: on a bdi list since dirtied_when
  sim::Time dirtied_when = 0;
  bool i_sync = false;  // a flusher / throttled writer pass is running on it
  std::int64_t writeback_index = 0;
  WbList list = WbList::None;
  LruHook wb_hook;                          // in b_dirty / b_io / b_more_io
  std::int64_t nr_writeback_at_device = 0;  // of nr_writeback, those whose write was dispatched
  // Woken when nr_writeback drops to 0, and when its writes all reach the
  // device or some go back to waiting in the queue (a waiter's layer changes).
  sim::Condition writeback_wait;

  // ext4: the jbd2 transaction that last changed this inode's metadata (mtime: fsync
  // needs it; size / allocation: fdatasync needs it too).
  std::uint64_t sync_tid = 0;
  std::uint64_t datasync_tid = 0;
  // Delayed allocation: blocks from here on were written but have no disk
  // blocks yet; writeback allocates them.
  std::int64_t allocated = 0;

  // Readahead (struct file_ra_state), one per file: the next block of a
  // sequential stream and the current window.
  std::int64_t ra_next = -1;
  std::int64_t ra_window = 0;

  std::int64_t sector_of(std::int64_t block) const { return first_sector + block * kSectorsPerBlock; }
  // What a power loss takes from RAM: a dirty block, or one in flight (PG_writeback: torn or missing).
  bool lost_with_ram(std::int64_t b) const {
    if (b >= static_cast<std::int64_t>(blocks.size())) return false;  // never written
    const CachedBlock& block = blocks[static_cast<std::size_t>(b)];
    return block.has(kDirty) || block.has(kWriteback);
  }
  bool is_dirty_block(std::int64_t b) const { return (dirty_bits[static_cast<std::size_t>(b >> 6)] >> (b & 63)) & 1U; }
  void set_dirty_bit(std::int64_t b) { dirty_bits[static_cast<std::size_t>(b >> 6)] |= std::uint64_t{1} << (b & 63); }
  void clear_dirty_bit(std::int64_t b) {
    dirty_bits[static_cast<std::size_t>(b >> 6)] &= ~(std::uint64_t{1} << (b & 63));
  }
  // The first dirty block in [from, end), or end.
  std::int64_t next_dirty(std::int64_t from, std::int64_t end) const {
    if (from >= end) return end;
    auto word = static_cast<std::size_t>(from >> 6);
    std::uint64_t bits = dirty_bits[word] & (~std::uint64_t{0} << (from & 63));
    const auto last = static_cast<std::size_t>((end - 1) >> 6);
    for (;;) {
      if (bits != 0) {
        const std::int64_t b = static_cast<std::int64_t>(word) * 64 + std::countr_zero(bits);
        return b < end ? b : end;
      }
      if (++word > last) return end;
      bits = dirty_bits[word];
    }
  }
};

using InodeList = boost::intrusive::list<Inode, boost::intrusive::member_hook<Inode, LruHook, &Inode::wb_hook>,
                                         boost::intrusive::constant_time_size<true>>;

// Global page-cache state: the files, the LRU, the meminfo counters (in blocks).
class PageCache {
 public:
  PageCache(sim::Simulator& sim, std::int64_t capacity_blocks);
  ~PageCache();

  Inode& add_file(std::string name, Volume volume, std::int64_t max_blocks);
  Inode& inode(FileId id) { return *inodes_[static_cast<std::size_t>(id)]; }
  const Inode& inode(FileId id) const { return *inodes_[static_cast<std::size_t>(id)]; }
  std::size_t files() const { return inodes_.size(); }

  std::int64_t capacity() const { return capacity_; }
  std::int64_t cached() const { return nr_cached_; }
  std::int64_t free() const { return capacity_ - nr_cached_; }
  std::int64_t dirty() const { return nr_dirty_; }
  std::int64_t writeback() const { return nr_writeback_; }
  std::size_t lru_size() const { return inactive_.size() + active_.size(); }

  // Takes a free block for (inode, b), reclaiming a clean one if the cache
  // is full; false when nothing is reclaimable (all dirty, under I/O).
  bool allocate(Inode& inode, std::int64_t b);
  // Frees a clean cached block (truncate, fadvise).
  void release(Inode& inode, std::int64_t b);
  // A removed file with no page left: its block arrays are freed and it
  // can hold no block again (max_blocks 0).
  void forget_blocks(Inode& inode);
  // A hit: mark_page_accessed.
  void touch(CachedBlock& block);
  // A past buffered read or write of the block, completed and written back:
  // a new block enters the inactive list (add_to_page_cache_lru), and either
  // way the access marks it (mark_page_accessed). False if nothing could be
  // reclaimed to make room.
  bool access_idle(Inode& inode, std::int64_t b);
  // Puts a clean idle block on the inactive list; takes one off the lists.
  void lru_add(CachedBlock& block);
  void lru_remove(CachedBlock& block);

  // State transitions, keeping every counter in step.
  void set_dirty(Inode& inode, std::int64_t b);        // not dirty -> dirty
  void clear_dirty(Inode& inode, std::int64_t b);      // truncate: dirty page dropped
  void start_writeback(Inode& inode, std::int64_t b);  // dirty -> writeback
  void end_writeback(Inode& inode, std::int64_t b);
  // A read in flight holds the block locked (PG_locked) until its data is in.
  void lock_for_read(CachedBlock& block) { block.flags |= kLocked; }
  void unlock_after_read(CachedBlock& block) { block.flags = static_cast<std::uint8_t>(block.flags & ~kLocked); }
  // The block's I/O left the elevator for the device, and later completed:
  // bookkeeping for the wait layers (io_layer.h), no state of Linux's own.
  void at_device(Inode& inode, std::int64_t b, bool write) {
    inode.blocks[static_cast<std::size_t>(b)].flags |= kAtDevice;
    if (write) ++inode.nr_writeback_at_device;
  }
  // A bio's blocks reached the device: their waiters change layer, from the
  // scheduler's queue to the device (nothing else in the simulation changes).
  void bio_at_device(Inode& inode, std::int64_t first, std::int64_t count, bool write) {
    for (std::int64_t b = first; b < first + count; ++b) {
      at_device(inode, b, write);
      wake_up_page(inode.id, b);
    }
  }
  void left_device(Inode& inode, std::int64_t b, bool write) {
    CachedBlock& block = inode.blocks[static_cast<std::size_t>(b)];
    block.flags = static_cast<std::uint8_t>(block.flags & ~kAtDevice);
    if (write) --inode.nr_writeback_at_device;
  }

  // Page wait queues, hashed as the kernel's page_waitqueue.
  sim::Condition& waitqueue(FileId file, std::int64_t b) {
    const auto h = (static_cast<std::uint64_t>(file) * 0x9E3779B97F4A7C15ULL) ^ static_cast<std::uint64_t>(b);
    return *waitqueues_[(h * 0xBF58476D1CE4E5B9ULL >> 58) & (kWaitqueues - 1)];
  }
  // wake_up_page (mm/filemap.c): the block's waiters re-check its flags.
  void wake_up_page(FileId file, std::int64_t b) {
    sim::Condition& wq = waitqueue(file, b);
    if (wq.waiters() > 0) wq.notify_all();
  }
  // Woken whenever a block becomes reclaimable (for allocators that found none).
  sim::Condition& reclaimable_wait() { return reclaimable_wait_; }

  // Recounts everything from the block arrays; false (with why) on a mismatch.
  bool check(std::string* why) const;

 private:
  static constexpr std::size_t kWaitqueues = 64;
  bool reclaim_one();

  std::int64_t capacity_;
  std::int64_t nr_cached_ = 0, nr_dirty_ = 0, nr_writeback_ = 0;
  sim::Simulator& sim_;
  std::vector<std::unique_ptr<Inode>> inodes_;
  LruList inactive_, active_;
  std::vector<std::unique_ptr<sim::Condition>> waitqueues_;
  sim::Condition reclaimable_wait_;
};

// wait_on_page_locked / wait_on_page_writeback: until the block's `flag`
// clears, in the layer of its I/O (a null task keeps no clock).
sim::Task<> wait_on_page_bit(PageCache& cache, OsTask* task, Inode& inode, std::int64_t b, std::uint8_t flag);
// filemap_fdatawait: until none of the inode's blocks is under writeback.
sim::Task<> wait_on_writeback(OsTask& task, Inode& inode);

}  // namespace ckptsim::os
