// models/postgres/backend.cpp
//
// A backend's statements as pgbench issues them (see backend.h).
#include "models/postgres/backend.h"

namespace ckptsim::postgres {

namespace {
constexpr int kCommitRecordBytes = 40;  // XLOG_XACT_COMMIT without subtransactions or invalidations
}  // namespace

Backend::Backend(const SharedState& shared, os::OsTask& task)
    : shared_(shared),
      task_(task),
      writeback_(shared.rels, flush_after_pages(shared.version, shared.config.backend_flush_after),
                 &shared.stats.backend_writebacks),
      waits_(shared.sim, WaitEvent::ClientRead),
      proc_{&task, ProcKind::Backend, &writeback_, &waits_},
      xact_ended_(shared.sim) {}

void Backend::begin_write() {
  if (in_write_xact_) return;
  in_write_xact_ = true;  // an xid is assigned
  ++shared_.xids_assigned;
  ++shared_.active_write_xacts;
}

sim::Task<> Backend::read(RelationId rel, std::int64_t block, bool sets_hints) {
  const BufferId id = co_await shared_.bufmgr.read_buffer(proc_, rel, block);
  if (sets_hints) co_await set_hint_bits(id, rel, block);
  shared_.bufmgr.release(id);
}

sim::Task<> Backend::set_hint_bits(BufferId id, RelationId rel, std::int64_t block) {
  BufferManager& bufmgr = shared_.bufmgr;
  if (bufmgr.dirty_since_write_began(id)) co_return;
  const auto page_lsn = [&]() -> Lsn& { return shared_.rels.rel(rel).page_lsn[static_cast<std::size_t>(block)]; };
  Lsn image_end = 0;
  if (hint_bits_logged(shared_.config)) image_end = co_await shared_.wal.save_buffer_for_hint(proc_, page_lsn());
  // PageSetLSN only if this call dirtied the buffer (a buffer being written keeps its LSN).
  if (bufmgr.mark_dirty_hint(id, image_end) && image_end != 0) page_lsn() = image_end;
}

sim::Task<> Backend::change_page(BufferId id, RelationId rel, std::int64_t block, int record_bytes, bool new_page) {
  BufferManager& bufmgr = shared_.bufmgr;
  // Indexed again after each wait: another backend's extension may grow the vector meanwhile.
  const auto page_lsn = [&]() -> Lsn& { return shared_.rels.rel(rel).page_lsn[static_cast<std::size_t>(block)]; };
  {
    const BufferManager::ContentLock locked = co_await bufmgr.lock_exclusive(proc_, id);
    const Lsn before = page_lsn();
    const Lsn end = co_await shared_.wal.insert(proc_, record_bytes, new_page ? nullptr : &before);
    page_lsn() = end;
    bufmgr.mark_dirty(id, end);
  }
  bufmgr.release(id);
}

sim::Task<> Backend::modify(RelationId rel, std::int64_t block, int record_bytes, bool sets_hints) {
  begin_write();
  const BufferId id = co_await shared_.bufmgr.read_buffer(proc_, rel, block);
  // The row's versions are looked at (and hinted) before heap_update changes the page.
  if (sets_hints && hint_bits_logged(shared_.config)) co_await set_hint_bits(id, rel, block);
  co_await change_page(id, rel, block, record_bytes, false);
}

sim::Task<> Backend::insert(RelationId rel, int tuples_per_page, int record_bytes) {
  begin_write();
  BufferManager& bufmgr = shared_.bufmgr;
  Relation& r = shared_.rels.rel(rel);  // relations are created before start(): the reference stays valid
  // The relation extension lock (LockRelationForExtension): one extender at a
  // time; an inserter waits while anyone extends, then looks at the last page again.
  sim::LWLock& extension_lock = shared_.locks.extension_lock(rel);
  while (extension_lock.held()) {
    const WaitScope waiting = report_wait(proc_, WaitEvent::LockExtend);
    co_await extension_lock.released();
  }
  if (r.last_page_tuples >= tuples_per_page || r.nblocks == 0) {
    BufferId id = -1;
    std::int64_t block = 0;
    {
      const auto extending = extension_lock.try_exclusive();  // free: checked above, nothing awaited since
      r.last_page_tuples = 1;
      const SegmentId seg = co_await shared_.rels.extend(proc_, rel);  // smgrextend writes a zeroed page
      ++shared_.stats.backend_extends;
      block = r.nblocks - 1;
      co_await bufmgr.register_sync(proc_, seg);  // counts as buffers_backend
      id = co_await bufmgr.read_buffer(proc_, rel, block, true);
    }
    co_await change_page(id, rel, block, record_bytes, true);
  } else {
    ++r.last_page_tuples;
    const std::int64_t block = r.nblocks - 1;
    const BufferId id = co_await bufmgr.read_buffer(proc_, rel, block);
    co_await change_page(id, rel, block, record_bytes, false);
  }
}

sim::Task<> Backend::lock_row(RelationId rel, std::int64_t row) {
  for (;;) {
    LockTable::RowLock* held = shared_.locks.row_lock(rel, row);
    if (held == nullptr) break;
    if (held->owner == this) co_return;
    // heap_lock_tuple: the first waiter takes the tuple lock and waits for the
    // owner's transaction; the others queue on that tuple lock.
    Backend& owner = *held->owner;
    const WaitScope waiting =
        report_wait(proc_, held->waiters++ == 0 ? WaitEvent::LockTransactionId : WaitEvent::LockTuple);
    co_await owner.xact_ended_.wait();  // XactLockTableWait: until that transaction ends
  }
  shared_.locks.grant_row_lock(rel, row, this);
  ++locks_held_;
}

void Backend::release_locks() {
  if (locks_held_ > 0) {
    shared_.locks.release_row_locks(this);
    locks_held_ = 0;
    xact_ended_.notify_all();
  }
}

sim::Task<> Backend::commit() {
  if (in_write_xact_) {
    // RecordTransactionCommit: the commit record, then (synchronous_commit) wait for its flush.
    const Lsn end = co_await shared_.wal.insert(proc_, kCommitRecordBytes);
    if (shared_.config.synchronous_commit) {
      co_await shared_.wal.flush(proc_, end);
    } else {
      shared_.wal.writer().set_async_commit_lsn(end);
    }
    shared_.wal.ledger().commit_acknowledged(end);  // the client hears COMMIT now
    in_write_xact_ = false;
    --shared_.active_write_xacts;
  }
  ++shared_.stats.xact_commit;
  release_locks();
}

void Backend::end_read_only() {
  ++shared_.stats.xact_commit;
  release_locks();
}

}  // namespace ckptsim::postgres
