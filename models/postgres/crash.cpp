// models/postgres/crash.cpp
//
// Server::crash_state: reads the WAL, the relations' files and the buffer
// pool as they stand, without changing anything or taking simulated time;
// and the recovery estimate from it.
#include "models/postgres/server.h"

namespace ckptsim::postgres {

CrashState Server::crash_state() const {
  CrashState c;
  c.insert_lsn = wal_.insert_lsn();
  c.write_lsn = wal_.write_lsn();
  c.flush_lsn = wal_.flush_lsn();
  c.redo_lsn = aux_.checkpointer.recovery_redo();
  c.checkpoint_record_end = aux_.checkpointer.last_checkpoint_record_end();
  c.durable_lsn = wal_.durable_lsn(std::min(c.redo_lsn, c.checkpoint_record_end));
  c.phase = aux_.checkpointer.phase();
  c.full_page_writes = config_.full_page_writes;
  c.redo = wal_.ledger().since_redo(c.redo_lsn);
  c.acknowledged_commits = wal_.ledger().acknowledged_commits();
  c.lost_committed_transactions = wal_.ledger().acknowledged_after(c.durable_lsn);
  for (SegmentId s = 0; s < rels_.segment_count(); ++s) {
    const os::FileId file = rels_.segment(s).file;
    c.unsynced_data_blocks += static_cast<std::int64_t>(fs_.unstable_blocks(file, 0, fs_.size_blocks(file)).size());
  }
  for (BufferId id = 0; id < pool_.size(); ++id) c.dirty_shared_buffers += pool_.desc(id).dirty;
  return c;
}

RecoveryEstimate estimate_recovery(const CrashState& c, double wal_read_bytes_per_s, double page_read_s) {
  RecoveryEstimate e;
  e.page_reads = c.full_page_writes ? 0 : c.redo.first_changes;
  e.wal_read_s = static_cast<double>(c.redo_bytes()) / wal_read_bytes_per_s;
  e.replay_cpu_s = static_cast<double>(c.redo.records) * kReplayCpuPerRecordS;
  e.page_reads_s = static_cast<double>(e.page_reads) * page_read_s;
  return e;
}

}  // namespace ckptsim::postgres
