// models/postgres/crash.h
//
// The server as crash recovery would find it after a power loss now
// (StartupXLOG in xlog.c): pg_control's checkpoint, its redo point, the WAL
// that survived, and what was lost. PostgreSQL's own promise is that a
// commit it acknowledged with synchronous_commit on and fsync on is in the
// durable WAL; this measures whether the storage below kept it.
//
// - The durable WAL ends at the first WAL block not on stable storage (the
//   file system's word, which counts page cache, writes in flight and volatile
//   device caches), or at the written position: recovery replays to there.
// - An acknowledged commit whose record ends past that point is lost: with
//   synchronous_commit off (the WAL writer had not flushed it yet), or with a
//   device that acknowledged a flush it had not made (nobarrier, a volatile
//   write cache).
// - Data blocks not on stable storage are lost too, but their changes are in
//   the WAL since the redo point (that is what the checkpoint guarantees), or
//   they are lost with it.
//
// Left out: torn pages as such (with full_page_writes off a torn page is
// corruption; this only counts unsynced blocks), pg_control's own fsync,
// clog/multixact/relation-map files, and the initial WAL from initdb.
#pragma once

#include <cstdint>

#include "models/postgres/checkpointer.h"
#include "models/postgres/wal.h"

namespace ckptsim::postgres {

struct CrashState {
  Lsn insert_lsn = 0;                             // what backends had inserted
  Lsn write_lsn = 0;                              // handed to the kernel
  Lsn flush_lsn = 0;                              // fdatasynced, as PostgreSQL believes
  Lsn durable_lsn = 0;                            // on stable storage, as the devices hold it
  Lsn redo_lsn = 0;                               // the last completed checkpoint's redo point
  Lsn checkpoint_record_end = 0;                  // its checkpoint record, which pg_control points to
  CheckpointPhase phase = CheckpointPhase::Idle;  // of a checkpoint in progress
  std::int64_t unsynced_data_blocks = 0;          // relation blocks written but not on stable storage
  std::int64_t dirty_shared_buffers = 0;          // changes not yet written at all (in the WAL only)
  std::int64_t acknowledged_commits = 0;
  std::int64_t lost_committed_transactions = 0;
  WalLedger::SinceRedo redo;  // records since the redo point, and first changes of a page
  bool full_page_writes = true;

  // False when the checkpoint record itself did not survive: recovery cannot start.
  bool checkpoint_record_durable() const { return durable_lsn >= checkpoint_record_end; }
  std::int64_t redo_bytes() const { return durable_lsn > redo_lsn ? durable_lsn - redo_lsn : 0; }
};

// How long crash recovery would take: the startup process replaying the WAL
// from the redo point to the end of the durable WAL, one record and one read
// at a time (PostgreSQL 14 and earlier; 15's recovery_prefetch, which
// overlaps the reads, is left out, so on 15+ it is an upper bound):
// - reading the WAL sequentially;
// - applying each record, at kReplayCpuPerRecordS;
// - one random read per page whose first change since the redo point carries
//   no full-page image: with full_page_writes on, none (the image replaces
//   the page); off, every such page.
// These add up: replay waits for each read. Left out: the end-of-recovery
// checkpoint and the page cache's help (a power loss empties it).
struct RecoveryEstimate {
  std::int64_t page_reads = 0;
  double wal_read_s = 0;
  double replay_cpu_s = 0;
  double page_reads_s = 0;
  double total_s() const { return wal_read_s + replay_cpu_s + page_reads_s; }
};

// An assumption, not a measurement: the startup process's CPU per pgbench
// record when its page is in shared buffers (the redo of a heap update or
// insert, an index insert, a commit: heap_redo, btree_redo, xact_redo in
// PostgreSQL; a few microseconds each on current hardware).
inline constexpr double kReplayCpuPerRecordS = 5e-6;

// The devices' part comes from the caller (models/disk/read_cost.h): the WAL
// device's sequential rate and the data device's random read of one page.
RecoveryEstimate estimate_recovery(const CrashState& c, double wal_read_bytes_per_s, double page_read_s);

}  // namespace ckptsim::postgres
