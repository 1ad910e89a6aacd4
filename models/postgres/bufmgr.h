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
// Content locks are reduced to what stalls the write path: a modifier waits
// for a write of the page in progress (the writer's share lock), and a writer
// waits for a modifier (its exclusive lock). Readers never wait for them.
// Left out: ring buffers, buffer header spinlocks, local (temp) buffers.
#pragma once

#include <cstdint>
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
  BufferManager(BufferPool& pool, Relations& rels, Wal& wal, SyncQueue& queue, Stats& stats, Version version)
      : pool_(pool), rels_(rels), wal_(wal), queue_(queue), stats_(stats), version_(version) {}

  // ReadBuffer: returns the buffer holding (rel, block), pinned. `new_page`: the block was just
  // added by extension and is not read (P_NEW).
  sim::Task<BufferId> read_buffer(PgProc& proc, RelationId rel, std::int64_t block, bool new_page = false);
  void release(BufferId id) noexcept { pool_.unpin(id); }

  // LockBuffer(BUFFER_LOCK_EXCLUSIVE) / UNLOCK on a pinned buffer.
  sim::Task<> lock_exclusive(PgProc& proc, BufferId id);
  void unlock(BufferId id);
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

  BufferPool& pool() noexcept { return pool_; }
  Relations& relations() noexcept { return rels_; }

 private:
  // BufferAlloc's victim loop: a buffer pinned by us alone, clean and idle, still holding its old
  // tag (the caller retags it, or frees it if someone loaded the page meanwhile).
  sim::Task<BufferId> get_victim(PgProc& proc);

  BufferPool& pool_;
  Relations& rels_;
  Wal& wal_;
  SyncQueue& queue_;
  Stats& stats_;
  Version version_;
};

}  // namespace ckptsim::postgres
