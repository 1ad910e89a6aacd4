// models/postgres/bufmgr.h
//
// The buffer manager's paths through shared buffers (bufmgr.c): ReadBuffer
// (hit, wait for another's read, or miss: claim a victim, read the block),
// the victim's eviction (a dirty victim is written by the backend itself
// after flushing WAL up to its LSN), FlushBuffer (WAL before data; pwrite;
// fsync request), SyncOneBuffer (shared by the bgwriter and the
// checkpointer) and the exclusive content lock a modification holds.
//
// Who writes decides where the fsync request goes: the checkpointer keeps it
// (pendingOps), everyone else forwards it through SyncQueue; a backend's
// forwarded write or extension counts as buffers_backend, and a backend that
// finds the queue full and uncompactable fsyncs the segment itself.
//
// Content locks are reduced to what stalls the write path: a modifier holds
// the buffer's LWLock exclusively (LockBuffer), a writer holds it shared for
// its write (FlushBuffer's caller), so a modifier waits for a write in
// progress and a writer for a modifier, as LWLock:BufferContent. Readers
// never take it.
//
// Every wait on a buffer (for its read, its write or its content lock)
// parks on that buffer's LWLock, whose release wakes its waiters in FIFO
// order; each re-checks. A read-in holds the lock exclusively for the read
// (nobody can want it then: every other user waits for the read first), so
// that its end wakes the read's waiters as BufferDescriptorGetIOCV would.
// Left out: ring buffers, buffer header spinlocks, local (temp) buffers.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/postgres/buffer_pool.h"
#include "models/postgres/proc.h"
#include "models/postgres/relations.h"
#include "models/postgres/stats.h"
#include "models/postgres/sync_queue.h"
#include "models/postgres/version.h"
#include "models/postgres/wal.h"
#include "models/postgres/writeback.h"

namespace ckptsim::postgres {

class BufferManager {
 public:
  class ContentLock;

  BufferManager(BufferPool& pool, Relations& rels, Wal& wal, SyncQueue& queue, Stats& stats, Version version)
      : pool_(pool), rels_(rels), wal_(wal), queue_(queue), stats_(stats), version_(version) {}

  // ReadBuffer: returns the buffer holding (rel, block), pinned. `new_page`: the block was just
  // added by extension and is not read (P_NEW).
  sim::Task<BufferId> read_buffer(PgProc& proc, RelationId rel, std::int64_t block, bool new_page = false);
  // ReadBuffer's hit path and the release, with nothing between and no
  // coroutine frame (most page accesses of a cached workload end here): true
  // if the block was there and not being read in (usage_count and blks_hit
  // count the access), false if nothing changed and read_buffer must run.
  bool access_if_cached(const BufferTag& tag) noexcept {
    const BufferId id = cached(tag);
    if (id < 0) return false;
    pool_.pin_and_unpin(id);
    ++stats_.blks_hit;
    return true;
  }
  void release(BufferId id) noexcept { pool_.unpin(id); }

  // LockBuffer(BUFFER_LOCK_EXCLUSIVE) on a pinned buffer, held until the
  // returned lock goes out of scope (or its unlock()).
  sim::Task<ContentLock> lock_exclusive(PgProc& proc, BufferId id);
  // MarkBufferDirty after the change's WAL record ending at `lsn`.
  void mark_dirty(BufferId id, Lsn lsn);
  // MarkBufferDirtyHint's first test: BM_DIRTY and BM_JUST_DIRTIED both set, nothing to do.
  bool dirty_since_write_began(BufferId id) const { return pool_.desc(id).dirty && pool_.desc(id).just_dirtied; }
  // MarkBufferDirtyHint's end, with the XLOG_FPI_FOR_HINT record's end (0: none): true if the
  // buffer was clean, when the caller sets the page's LSN to `lsn`.
  bool mark_dirty_hint(BufferId id, Lsn lsn);

  // FlushBuffer on a pinned buffer: false if it was clean by the time we could write it.
  sim::Task<bool> flush_buffer(PgProc& proc, BufferId id);

  struct SyncResult {
    bool reusable = false;
    bool written = false;
  };
  // SyncOneBuffer.
  sim::Task<SyncResult> sync_one_buffer(PgProc& proc, BufferId id, bool skip_recently_used);

  // BufferSync's first pass, which PostgreSQL keeps in bufmgr.c: set
  // BM_CHECKPOINT_NEEDED on every valid dirty buffer and list each with its
  // tag (CkptSortItem), in buffer order, for the checkpointer to sort and write.
  // buf_internals.h's CkptSortItem, with the block as its 32-bit BlockNumber:
  // 12 bytes, and one per buffer is kept for the checkpoint's whole life.
  struct CkptSortItem {
    RelationId rel;
    std::uint32_t block;
    BufferId buf;
  };
  static_assert(sizeof(CkptSortItem) == 12);
  void mark_checkpoint_buffers(std::vector<CkptSortItem>& items);
  // Still to be written by this checkpoint (not written by anyone since it was marked).
  bool checkpoint_needed(BufferId id) const { return pool_.desc(id).checkpoint_needed; }

  // The fsync request of a write or extension by `proc` (register_dirty_segment).
  sim::Task<> register_sync(PgProc& proc, SegmentId seg);

  // pg_prewarm's ReadBufferExtended before the simulation starts: the block
  // loaded into the buffer the sweep gave (clean, idle), at no simulated cost.
  void load_before_start(BufferId victim, const BufferTag& tag);

  BufferPool& pool() noexcept { return pool_; }
  Relations& relations() noexcept { return rels_; }

 private:
  // BufferAlloc's victim loop: a buffer pinned by us alone, clean and idle, still holding its old
  // tag (the caller retags it, or frees it if someone loaded the page meanwhile).
  sim::Task<BufferId> get_victim(PgProc& proc);
  // The buffer holding `tag` unless it is absent or still being read in (-1).
  BufferId cached(const BufferTag& tag) const noexcept {
    const BufferId id = pool_.lookup(tag);
    return id < 0 || (pool_.state(id).io_in_progress && !pool_.state(id).valid) ? -1 : id;
  }
  // Parks the caller until the buffer's I/O ends or its content lock is released.
  sim::Condition::WaitAwaiter wait_for_buffer(BufferId id) noexcept { return pool_.content_lock(id).released(); }

  BufferPool& pool_;
  Relations& rels_;
  Wal& wal_;
  SyncQueue& queue_;
  Stats& stats_;
  Version version_;
};

// The exclusive content lock a modifier holds (LockBuffer to UNLOCK).
class BufferManager::ContentLock : public sim::LWLock::Guard {
 public:
  ContentLock() noexcept = default;
  explicit ContentLock(sim::LWLock::Guard held) noexcept : sim::LWLock::Guard(std::move(held)) {}
};

}  // namespace ckptsim::postgres
