// models/postgres/backend.h
//
// A backend process: what one pgbench connection's statements do to shared
// memory, WAL and the locks (heapam.c / bufmgr.c / xact.c as pgbench reaches
// them). A changed page always takes the same steps (the page-modify
// sequence of heap_update / heap_insert): exclusive content lock, WAL record
// (with a full-page image if this is the page's first change since the redo
// point), the page's LSN, MarkBufferDirty, unlock, unpin.
//
// Hint bits: a statement that looks at a row whose last updater has committed
// since anyone last looked sets the tuples' hint bits (SetHintBits in
// heapam_visibility.c) and calls MarkBufferDirtyHint (bufmgr.c): unless the
// buffer is dirty already, that dirties it, and with data_checksums or
// wal_log_hints (XLogHintBitIsNeeded) first WAL-logs the page's image if it
// has not changed since the redo point (XLogSaveBufferForHint). Before an
// UPDATE of the same page this only moves the image from the update's record
// into an XLOG_FPI_FOR_HINT record; without WAL-logged hints it dirties the
// buffer a moment before the update does, which is left to the update.
//
// Left out: the executor and planner (their CPU is charged by pgbench),
// subtransactions, HOT pruning, hint bits on index pages (LP_DEAD), the
// checksum's CPU on each read and write.
#pragma once

#include <cstdint>

#include "models/os/file_system.h"
#include "models/postgres/bufmgr.h"
#include "models/postgres/lmgr.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/relations.h"
#include "models/postgres/stats.h"
#include "models/postgres/version.h"
#include "models/postgres/wait_event.h"
#include "models/postgres/wal.h"
#include "models/postgres/writeback.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

// What every backend reaches in shared memory, given explicitly.
struct SharedState {
  sim::Simulator& sim;
  const PostgresConfig& config;
  Version version;
  Stats& stats;
  Relations& rels;
  Wal& wal;
  BufferManager& bufmgr;
  LockTable& locks;
  std::int64_t& active_write_xacts;  // transactions with an xid: commit_siblings counts them
  std::int64_t& xids_assigned;       // GetNewTransactionId's count since the cluster started
};

class Backend {
 public:
  Backend(const SharedState& shared, os::OsTask& task);
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // ReadBuffer + (pin/unpin): a SELECT or an index probe touching one page;
  // `sets_hints`: it meets tuples whose hint bits are not yet set.
  sim::Task<> read(RelationId rel, std::int64_t block, bool sets_hints = false);
  // read() done at once when it cannot wait: the page is in shared buffers
  // and no hint bits are to be set. False: nothing done, read() must run.
  bool read_if_cached(RelationId rel, std::int64_t block, bool sets_hints) noexcept {
    return !sets_hints && shared_.bufmgr.access_if_cached(BufferTag{rel, block});
  }
  // A page modified by an UPDATE / index insert: read if needed, then the page-modify sequence
  // with a WAL record of record_bytes.
  sim::Task<> modify(RelationId rel, std::int64_t block, int record_bytes, bool sets_hints = false);
  // An INSERT into the relation's last page; extends the relation by one page (a new page, no FPI)
  // when the last one holds tuples_per_page tuples.
  sim::Task<> insert(RelationId rel, int tuples_per_page, int record_bytes);
  // A row lock held until commit (pgbench_branches / tellers rows are the serialization points).
  sim::Task<> lock_row(RelationId rel, std::int64_t row);
  // COMMIT: a commit record, XLogFlush up to it when synchronous_commit is on (group commit),
  // release row locks.
  sim::Task<> commit();
  // A read-only transaction's end (no commit record, no flush), releases locks.
  void end_read_only();

  // pgbench's message arrived: the backend runs the statement (no wait event
  // unless it waits), then waits for the next one in Client:ClientRead.
  void begin_statement() { waits_.enter(WaitEvent::Cpu); }
  void end_statement() { waits_.enter(WaitEvent::ClientRead); }
  // Where this backend's time went since it connected (wait_event.h).
  const WaitClock& waits() const noexcept { return waits_; }
  const os::OsTask& task() const noexcept { return task_; }
  int pid() const noexcept { return task_.pid; }

 private:
  void begin_write();
  // SetHintBits' MarkBufferDirtyHint on a pinned buffer.
  sim::Task<> set_hint_bits(BufferId id, RelationId rel, std::int64_t block);
  void release_locks();
  // The page-modify sequence on a pinned buffer; `new_page`: the record initialises the page
  // (XLOG_HEAP_INIT_PAGE) and carries no image.
  sim::Task<> change_page(BufferId id, RelationId rel, std::int64_t block, int record_bytes, bool new_page);

  SharedState shared_;
  os::OsTask& task_;
  WritebackContext writeback_;
  WaitClock waits_;
  PgProc proc_;
  bool in_write_xact_ = false;
  int locks_held_ = 0;
  sim::Condition xact_ended_;  // its transaction lock: row-lock waiters wait for the transaction to end
};

}  // namespace ckptsim::postgres
