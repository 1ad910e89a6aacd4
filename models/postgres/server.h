// models/postgres/server.h
//
// One PostgreSQL server: shared buffers, WAL, the fsync request queue, the
// background processes (bgwriter, checkpointer, WAL writer; one combined
// bgwriter/checkpointer up to 9.1) and the backends that pgbench connects,
// composed over an os::FileSystem. This is the seam the pgbench model and the
// runner use; the mechanisms live in the files named below.
//
//   backend.h             a connection's statements: page changes, inserts, row locks, hint bits, commit
//   buffer_pool.h         descriptors, mapping table, freelist, clock sweep
//   bufmgr.h              ReadBuffer, eviction, FlushBuffer, SyncOneBuffer, MarkBufferDirtyHint
//   bgwriter.h            BgBufferSync and hibernation
//   checkpointer.h        the checkpointer's loop, requests, CreateCheckPoint
//   checkpoint_schedule.h when a checkpoint is due and how fast it writes
//   checkpoint_write.h    BufferSync and CheckpointWriteDelay
//   checkpoint_sync.h     the sync phase (ProcessSyncRequests / mdsync)
//   sync_queue.h          fsync request queue, compaction, pendingOps
//   slru.h                the pg_xact / pg_subtrans pages a checkpoint writes (18's slru_written)
//   wal.h                 insertion, full-page images, group commit
//   walwriter.h           the WAL writer process
//   wal_segments.h        WAL segment files: recycling, removal
//   wal_ledger.h          the WAL's bookkeeping for the crash report
//   relations.h           relations in 1 GB segment files
//   writeback.h           *_flush_after
//   lmgr.h                relation extension and row locks
//   latch.h               a process latch
//   proc.h                a process as shared memory sees it (PGPROC)
//   wait_event.h          pg_stat_activity's wait events
//   prewarm.h             pg_prewarm
//   crash.h               the cluster as recovery would find it after a power loss
//   host_file.h           a file that a process beside the server writes (pgbench's -P log)
//   log_format.h          log_line_prefix and log_checkpoints lines per version
//   stats.h               pg_stat_bgwriter / pg_stat_checkpointer / pg_stat_wal counters
//   postgres_config.h     the settings, ReloadableConfig the ones a reload applies
//   version.h             what changed between releases
//   server_stats.cpp      this class's system.csv columns, pg_stat_reset
//
// Left out: autovacuum, HOT pruning, the SLRUs' own buffers and reads (only
// the pages a checkpoint writes are counted), heavyweight lock manager (row
// locks are a small table with no deadlock detection; pgbench takes them in a
// fixed order), CPU of backends (charged by pgbench).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/os/file_system.h"
#include "models/postgres/backend.h"
#include "models/postgres/bgwriter.h"
#include "models/postgres/checkpointer.h"
#include "models/postgres/crash.h"
#include "models/postgres/host_file.h"
#include "models/postgres/lmgr.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/stats.h"
#include "sim/sampler.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

class Server {
 public:
  Server(sim::Simulator& sim, sim::Resource& cpus, os::FileSystem& fs, const PostgresConfig& config,
         std::uint64_t seed);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // A relation as pgbench -i leaves it: `blocks` pages on disk (not cached), split into 1 GB
  // segment files. Call before start(). Its size later: relations().rel(id).nblocks.
  RelationId create_relation(std::string name, std::int64_t blocks);
  // Starts the background processes (bgwriter, checkpointer, WAL writer; one combined process up to 9.1).
  void start();
  // A new backend process (one per pgbench connection); owned by the Server.
  Backend& connect();
  // A new, empty file on the data volume with room for `max_bytes`, appended
  // to by a new process `process` of the host that is not the server's (host_file.h).
  std::unique_ptr<HostFile> create_host_file(std::string_view name, std::string process, std::int64_t max_bytes);
  // pg_ctl reload: the postmaster re-reads postgresql.conf and signals its
  // children (SIGHUP), each of which runs ProcessConfigFile at its next loop
  // (guc-file.l; CheckpointerMain, BackgroundWriterMain). Takes from `config`
  // the settings a reload may change, its ReloadableConfig (postgres_config.h);
  // shared_buffers, wal_buffers and the version (postmaster context) stay, and
  // so does fsync, which this model reads at start only. The checkpointer's
  // and the bgwriter's latches are set, as the signal handler does.
  // Connections opened later take backend_flush_after and synchronous_commit.
  void reload(const PostgresConfig& config);
  // pg_stat_reset_shared('bgwriter') + pg_stat_reset() + WAL stats.
  void reset_stats();
  // CHECKPOINT (immediate, force, wait: not paced) or a spread request (force).
  void request_checkpoint(bool immediate);

  // system.csv: per-second rates of the pg_stat_bgwriter counters, wal_mb_s, wal_fpi_s,
  // blks_hit_pct, and ckpt_phase (idle / write / sync at the end of the interval).
  void add_system_columns(sim::Table& system);
  // The checkpoints that started since the last reset_stats() (the measured run's).
  std::vector<CheckpointRecord> checkpoints_since_reset() const;
  // LOG lines with log_line_prefix '%m [%p] ', delivered as they happen.
  void set_log_sink(std::function<void(std::string_view line)> sink);
  // Every page dirtied before the last completed checkpoint's redo point was written and fsynced.
  bool check_durability(std::string* why) const;
  // A power loss now, as recovery would find the cluster (crash.h).
  CrashState crash_state() const;
  const Stats& stats() const { return stats_; }

  // The mechanisms, for tests and the validation script.
  const Version& version() const noexcept { return version_; }
  const PostgresConfig& config() const noexcept { return config_; }
  // The postmaster's pid, drawn from the seed; its children's pids follow it,
  // so the log prefix's %p reads as on a freshly started server.
  int postmaster_pid() const noexcept { return postmaster_pid_; }
  BufferPool& buffer_pool() noexcept { return pool_; }
  BufferManager& buffer_manager() noexcept { return bufmgr_; }
  Relations& relations() noexcept { return rels_; }
  Wal& wal() noexcept { return wal_; }
  SyncQueue& sync_queue() noexcept { return queue_; }
  BackgroundWriter& bgwriter() noexcept { return aux_.bgwriter; }
  Checkpointer& checkpointer() noexcept { return aux_.checkpointer; }

 private:
  // The auxiliary processes the postmaster starts (AuxiliaryProcessMain): their
  // loops, their PGPROCs and the writeback contexts of their *_flush_after.
  struct AuxProcesses {
    BackgroundWriter bgwriter;
    Checkpointer checkpointer;
    std::unique_ptr<WritebackContext> checkpoint_writeback;
    std::unique_ptr<WritebackContext> bgwriter_writeback;
    PgProc checkpointer_proc;
    PgProc bgwriter_proc;
    PgProc walwriter_proc;
  };
  // What procarray.c and varsup.c keep of the backends: their processes, the
  // transactions holding an xid (commit_siblings counts them) and the xids handed out.
  struct ProcArray {
    std::vector<std::unique_ptr<Backend>> backends;
    std::int64_t active_write_xacts = 0;
    std::int64_t xids_assigned = 0;
  };
  // The start of the measured run (pg_stat_reset) and of the current system.csv interval.
  struct StatsWindow {
    sim::Time reset_at = 0;
    Stats at_interval_start;
  };

  sim::Simulator& sim_;
  int postmaster_pid_;
  sim::Resource& cpus_;
  os::FileSystem& fs_;
  PostgresConfig config_;
  Version version_;
  Stats stats_;
  BufferPool pool_;
  Relations rels_;
  SyncQueue queue_;
  Wal wal_;
  BufferManager bufmgr_;
  AuxProcesses aux_;
  bool started_ = false;
  ProcArray procs_;
  LockTable locks_;
  std::function<void(std::string_view)> log_ = [](std::string_view) {};
  StatsWindow window_;
};

}  // namespace ckptsim::postgres
