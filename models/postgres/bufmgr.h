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
// Every wait on a buffer (for its read, its write or its content lock) parks
// on the pool's one queue, and every I/O end or content-lock release wakes
// the whole queue in FIFO order; each waiter re-checks its own buffer and
// queues again at the back. PostgreSQL wakes only that buffer's waiters (the
// LWLock's own queue and BufferDescriptorGetIOCV). Waking per buffer would
// change the simulated run: summary.json counts every event, and a waiter
// woken for another buffer and queued again goes behind a process that began
// to wait on its buffer in the meantime, which changes who gets the lock
// next. Left out: ring buffers, buffer header spinlocks, local (temp) buffers.
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
  void release(BufferId id) noexcept { pool_.unpin(id); }

  // LockBuffer(BUFFER_LOCK_EXCLUSIVE) on a pinned buffer, held until the
  // returned lock goes out of scope (or its unlock()).
  sim::Task<ContentLock> lock_exclusive(PgProc& proc, BufferId id);
  // MarkBufferDirty after the change's WAL record ending at `lsn`.
  void mark_dirty(BufferId id, Lsn lsn);

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
  struct CkptSortItem {
    RelationId rel;
    std::int64_t block;
    BufferId buf;
  };
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
  // Parks the caller until some buffer's I/O ends or content lock is released.
  sim::Condition::WaitAwaiter wait_for_buffer(BufferId /*id*/) noexcept { return pool_.io_done().wait(); }

  BufferPool& pool_;
  Relations& rels_;
  Wal& wal_;
  SyncQueue& queue_;
  Stats& stats_;
  Version version_;
};

// The exclusive content lock a modifier holds; its release wakes the pool's
// waiters (UnlockBuffers / LWLockRelease).
class BufferManager::ContentLock {
 public:
  ContentLock() noexcept = default;
  ContentLock(ContentLock&& other) noexcept
      : held_(std::move(other.held_)), waiters_(other.waiters_), sim_(other.sim_) {}
  ContentLock& operator=(ContentLock&&) = delete;
  ContentLock(const ContentLock&) = delete;
  ContentLock& operator=(const ContentLock&) = delete;
  // At teardown the pool may be gone: the Guard's own destructor leaves it alone.
  ~ContentLock() {
    if (held_ && !sim_->tearing_down()) unlock();
  }
  void unlock() {
    if (!held_) return;
    held_.unlock();
    waiters_->notify_all();
  }

 private:
  friend class BufferManager;
  ContentLock(sim::LWLock::Guard held, sim::Condition& waiters, const sim::Simulator& sim) noexcept
      : held_(std::move(held)), waiters_(&waiters), sim_(&sim) {}
  sim::LWLock::Guard held_;
  sim::Condition* waiters_ = nullptr;
  const sim::Simulator* sim_ = nullptr;
};

}  // namespace ckptsim::postgres
