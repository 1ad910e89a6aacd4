// models/postgres/bufmgr.cpp
//
// ReadBuffer, eviction, FlushBuffer, SyncOneBuffer, fsync request routing.
#include "models/postgres/bufmgr.h"

namespace ckptsim::postgres {

sim::Task<BufferId> BufferManager::read_buffer(PgProc& proc, RelationId rel, std::int64_t block, bool new_page) {
  const BufferTag tag{rel, block};
  for (;;) {
    const BufferId id = pool_.lookup(tag);
    if (id >= 0) {
      pool_.pin(id);
      // Another backend is reading it in: wait for that read (counts as a hit, as in PostgreSQL).
      while (pool_.state(id).io_in_progress && !pool_.state(id).valid) {
        const WaitScope waiting = report_wait(proc, WaitEvent::BufferIo);
        co_await wait_for_buffer(id);
      }
      ++stats_.blks_hit;
      co_return id;
    }
    const BufferId victim = co_await get_victim(proc);
    if (pool_.lookup(tag) >= 0) {
      // Someone loaded our page while we were evicting: use theirs, give the victim back.
      pool_.unpin(victim);
      if (!pool_.desc(victim).tag_valid) pool_.free_buffer(victim);
      continue;
    }
    BufferState& b = pool_.mutable_state(victim);
    pool_.retag(victim, tag);
    b.valid = new_page;
    b.io_in_progress = !new_page;
    ++stats_.blks_read;
    if (!new_page) {
      sim::LWLock::Guard reading = pool_.content_lock(victim).try_exclusive();  // a victim: nobody else holds it
      co_await rels_.read(proc, rel, block);
      b.valid = true;
      b.io_in_progress = false;
      reading.unlock();
    }
    co_return victim;
  }
}

sim::Task<BufferId> BufferManager::get_victim(PgProc& proc) {
  for (;;) {
    const BufferId id = pool_.strategy_get_buffer();
    const BufferDesc& b = pool_.desc(id);
    pool_.pin(id, false);
    if (b.dirty) {
      // The backend writes the dirty victim itself (after XLogFlush up to its LSN).
      co_await flush_buffer(proc, id);
    }
    // While we waited, someone may have pinned or re-dirtied it: choose again.
    if (b.refcount != 1 || b.dirty || pool_.state(id).io_in_progress) {
      pool_.unpin(id);
      continue;
    }
    // GetVictimBuffer (16): taking over a buffer that held a block is an eviction.
    if (b.tag_valid && proc.kind == ProcKind::Backend) ++stats_.backend_evictions;
    co_return id;
  }
}

sim::Task<BufferManager::ContentLock> BufferManager::lock_exclusive(PgProc& proc, BufferId id) {
  sim::LWLock& content_lock = pool_.content_lock(id);
  // A writer holds the share lock for its write, a modifier the exclusive one.
  for (;;) {
    if (auto held = content_lock.try_exclusive()) co_return ContentLock(std::move(held));
    const WaitScope waiting = report_wait(proc, WaitEvent::LwBufferContent);
    co_await wait_for_buffer(id);
  }
}

void BufferManager::mark_dirty(BufferId id, Lsn lsn) {
  BufferDesc& b = pool_.mutable_desc(id);
  BufferDurability& d = pool_.mutable_durability(id);
  if (!b.dirty) d.dirty_since = lsn;
  if (d.dirty_since == 0) d.dirty_since = lsn;
  b.dirty = true;
  b.just_dirtied = true;
}

bool BufferManager::mark_dirty_hint(BufferId id, Lsn lsn) {
  BufferDesc& b = pool_.mutable_desc(id);
  const bool dirtied = !b.dirty;
  // A hint alone need not survive a crash: without an image it leaves dirty_since unset.
  if (dirtied) pool_.mutable_durability(id).dirty_since = lsn;
  b.dirty = true;
  b.just_dirtied = true;
  if (dirtied) ++stats_.hint_dirtied;
  return dirtied;
}

sim::Task<bool> BufferManager::flush_buffer(PgProc& proc, BufferId id) {
  BufferDesc& b = pool_.mutable_desc(id);
  BufferState& s = pool_.mutable_state(id);
  sim::LWLock& content_lock = pool_.content_lock(id);
  // StartBufferIO (and the share content lock): wait for a write in progress or a modifier.
  while (s.io_in_progress || content_lock.held_exclusive()) {
    const WaitScope waiting = report_wait(proc, s.io_in_progress ? WaitEvent::BufferIo : WaitEvent::LwBufferContent);
    co_await wait_for_buffer(id);
  }
  if (!s.valid || !b.dirty) co_return false;
  // Free of modifiers (checked above, nothing awaited since); held for the write alone.
  sim::LWLock::Guard share = content_lock.try_shared();
  s.io_in_progress = true;
  b.just_dirtied = false;
  BufferDurability& d = pool_.mutable_durability(id);
  d.writing_since = d.dirty_since;
  d.dirty_since = 0;
  const BufferTag tag = b.tag();
  // WAL before data: the page may not reach the kernel before the WAL that describes it.
  const Lsn lsn = rels_.rel(tag.rel).page_lsn[static_cast<std::size_t>(tag.block)];
  if (wal_.needs_flush(lsn)) co_await wal_.flush(proc, lsn);
  const SegmentId seg = co_await rels_.write(proc, tag.rel, tag.block, d.writing_since);
  co_await register_sync(proc, seg);
  // TerminateBufferIO: clean unless changed meanwhile.
  d.writing_since = 0;
  s.io_in_progress = false;
  if (!b.just_dirtied) {
    b.dirty = false;
    b.checkpoint_needed = false;
  }
  share.unlock();
  if (proc.writeback != nullptr) co_await proc.writeback->schedule(proc, tag.rel, tag.block);
  co_return true;
}

sim::Task<BufferManager::SyncResult> BufferManager::sync_one_buffer(PgProc& proc, BufferId id,
                                                                    bool skip_recently_used) {
  const BufferDesc& b = pool_.desc(id);
  SyncResult result;
  result.reusable = b.refcount == 0 && pool_.state(id).usage_count == 0;
  if (!result.reusable && skip_recently_used) co_return result;  // the bgwriter leaves hot buffers alone
  if (!pool_.state(id).valid || !b.dirty) co_return result;
  pool_.pin(id, false);
  result.written = co_await flush_buffer(proc, id);
  pool_.unpin(id);
  co_return result;
}

sim::Task<> BufferManager::register_sync(PgProc& proc, SegmentId seg) {
  if (proc.kind == ProcKind::Checkpointer) {
    queue_.remember(seg);
    co_return;
  }
  if (proc.kind == ProcKind::Backend) ++stats_.buffers_backend;
  if (queue_.forward(seg)) co_return;
  // The queue is full and could not be compacted: fsync the segment ourselves.
  if (proc.kind == ProcKind::Backend && version_.has_backend_fsync_stat()) ++stats_.buffers_backend_fsync;
  if (proc.kind == ProcKind::Bgwriter) ++stats_.bgwriter_fsyncs;
  co_await rels_.fsync(proc, seg);
}

void BufferManager::mark_checkpoint_buffers(std::vector<CkptSortItem>& items) {
  items.clear();
  const BufferId nbuffers = pool_.size();
  for (BufferId id = 0; id < nbuffers; ++id) {
    BufferDesc& b = pool_.mutable_desc(id);
    if (pool_.state(id).valid && b.dirty) {
      b.checkpoint_needed = true;
      items.push_back(CkptSortItem{b.rel, b.block, id});
    }
  }
}

}  // namespace ckptsim::postgres

namespace ckptsim::postgres {

void BufferManager::load_before_start(BufferId victim, const BufferTag& tag) {
  pool_.retag(victim, tag);  // usage_count 1, which the release leaves
  pool_.mutable_state(victim).valid = true;
}

}  // namespace ckptsim::postgres
