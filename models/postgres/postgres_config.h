// models/postgres/postgres_config.h
//
// PostgreSQL settings, with GUC names and units in the scenario. The version
// preset (scenarios/presets/postgres/VERSION.json, chosen by
// postgres.version) sets the defaults of that release; the scenario overrides
// them. Behaviours that are not settings (one combined bgwriter/checkpointer
// up to 9.1, queue compaction from 9.1, the 9.6 BufferSync loop, the
// CheckPointSegments formula, log line shapes) follow `version` itself; see
// models/postgres/version.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/enum_names.h"
#include "sim/time.h"

namespace ckptsim::postgres {

// wal_sync_method, as issue_xlog_fsync (xlog.c) uses it. Only the methods
// that sync after write() are modelled; open_datasync / open_sync (O_DSYNC /
// O_SYNC writes) are refused by the scenario loader.
enum class WalSyncMethod : std::uint8_t { Fdatasync, Fsync };
inline constexpr sim::EnumNames<WalSyncMethod, 2> kWalSyncMethodNames{
    {{"fdatasync", WalSyncMethod::Fdatasync}, {"fsync", WalSyncMethod::Fsync}}};

// wal_compression: a boolean from 9.5 (on = pglz), a method from 15.
enum class WalCompression : std::uint8_t { Off, Pglz, Lz4, Zstd };
inline constexpr sim::EnumNames<WalCompression, 4> kWalCompressionNames{{{"off", WalCompression::Off},
                                                                         {"pglz", WalCompression::Pglz},
                                                                         {"lz4", WalCompression::Lz4},
                                                                         {"zstd", WalCompression::Zstd}}};

// io_method (18+): how asynchronous reads are executed. Every read the model
// makes is a ReadBuffer of one block, which 18 runs synchronously in the
// backend whatever the method (ReadBuffer_common passes
// READ_BUFFERS_SYNCHRONOUSLY, so pgaio_io_needs_synchronous_execution in aio.c
// says yes); read streams (sequential scans, VACUUM), the only users of the
// workers or io_uring, are not part of a pgbench run.
enum class IoMethod : std::uint8_t { Sync, Worker, IoUring };
inline constexpr sim::EnumNames<IoMethod, 3> kIoMethodNames{
    {{"sync", IoMethod::Sync}, {"worker", IoMethod::Worker}, {"io_uring", IoMethod::IoUring}}};

// The settings a reload (SIGHUP) applies: PostgreSQL's sighup, superuser and
// user contexts, as the scenario rows give them (scenarios/settings_postgres.cpp;
// a test checks the rows and this struct agree). PostgresConfig derives from it
// rather than holding it as a member so that every setting stays reachable by
// its GUC name (config.checkpoint_timeout), and Server::reload is the one
// assignment apply_reload makes.
struct ReloadableConfig {
  sim::Duration checkpoint_timeout = 5 * sim::kMinute;
  double checkpoint_completion_target = 0.9;             // 0.5 before 14
  std::int64_t checkpoint_segments = 3;                  // up to 9.4
  sim::Bytes max_wal_size = 1 * sim::kGiB;               // 9.5+
  sim::Bytes min_wal_size = 80 * sim::kMiB;              // 9.5+
  sim::Duration checkpoint_warning = 30 * sim::kSecond;  // 0 disables the "too frequently" line
  // Not a GUC: the switch of the 2015 checkpoint-sorting patch under test in
  // E1 (9.6 sorts unconditionally), so that one version runs both ways.
  bool checkpoint_sorting = true;
  sim::Bytes checkpoint_flush_after = 256 * sim::kKiB;  // 9.6+, 0 disables
  sim::Duration bgwriter_delay = 200 * sim::kMillisecond;
  std::int64_t bgwriter_lru_maxpages = 100;
  double bgwriter_lru_multiplier = 2.0;
  sim::Bytes bgwriter_flush_after = 512 * sim::kKiB;  // 9.6+
  sim::Bytes backend_flush_after = 0;                 // 9.6+
  bool full_page_writes = true;
  // 9.5+: full-page images compressed (~3x for pgbench pages, taken for every method).
  WalCompression wal_compression = WalCompression::Off;
  WalSyncMethod wal_sync_method = WalSyncMethod::Fdatasync;  // the Linux default
  bool synchronous_commit = true;
  sim::Duration wal_writer_delay = 200 * sim::kMillisecond;
  sim::Bytes wal_writer_flush_after = 1 * sim::kMiB;  // 9.6+, 0: flush every round
  sim::Duration commit_delay = 0;
  std::int64_t commit_siblings = 5;  // commit_delay only with this many other open transactions
  bool log_checkpoints = true;
  bool track_wal_io_timing = false;  // 14+: pg_stat_wal's wal_write_time / wal_sync_time (18: pg_stat_io's)
  std::int64_t io_workers = 3;       // 18+; no read of a pgbench run uses the workers (see IoMethod)
};

// The rest is fixed from the server's start: postmaster and internal
// contexts, and fsync, which PostgreSQL reloads but this model reads at start.
struct PostgresConfig : ReloadableConfig {
  std::string version = "15";
  // max_connections: backends the postmaster admits. pgbench connects as a
  // superuser, who may also take superuser_reserved_connections' slots, so
  // its -c may be max_connections but no more (InitPostgres: "sorry, too many
  // clients already"). Nothing else of the model depends on it.
  std::int64_t max_connections = 100;
  sim::Bytes shared_buffers = 128 * sim::kMiB;
  sim::Bytes wal_buffers = -1;  // -1: 1/32 of shared_buffers, 64kB..16MB
  // fsync = off: pg_fsync, pg_fdatasync and pg_flush_data return at once and
  // issue_xlog_fsync and ProcessSyncRequests skip their syncs (fd.c, xlog.c,
  // sync.c / md.c before 12): no fsync, fdatasync or sync_file_range reaches the kernel.
  bool fsync = true;
  // initdb --data-checksums (9.3+; initdb's default from 18): a checksum on
  // every data page. A cluster property (the GUC is read-only), so a chained
  // grid cannot vary it.
  bool data_checksums = false;
  // 9.4+: WAL-log hint-bit changes as if checksums were on.
  bool wal_log_hints = false;
  IoMethod io_method = IoMethod::Worker;  // 18+ (18's default)
};

// What pg_ctl reload changes in a running server's settings.
inline void apply_reload(PostgresConfig& running, const PostgresConfig& reread) {
  static_cast<ReloadableConfig&>(running) = reread;
}

// XLogHintBitIsNeeded (xlog.h): with checksums or wal_log_hints, the first
// change of a page after a checkpoint's redo point that only sets hint bits
// is WAL-logged with a full-page image (MarkBufferDirtyHint ->
// XLogSaveBufferForHint), so that a torn write of it can be repaired.
inline bool hint_bits_logged(const PostgresConfig& c) { return c.data_checksums || c.wal_log_hints; }

// wal_buffers as the server sizes it: -1 means 1/32 of shared_buffers, at
// least 8 pages (64 kB), at most one WAL segment (16 MB).
inline sim::Bytes effective_wal_buffers(const PostgresConfig& c) {
  constexpr sim::Bytes kPage = 8 * sim::kKiB;
  if (c.wal_buffers > 0) return c.wal_buffers;
  return std::clamp<std::int64_t>(c.shared_buffers / kPage / 32, 8, 16 * sim::kMiB / kPage) * kPage;
}

// The shared memory segment the postmaster allocates at start (anonymous
// shared memory to the kernel, never reclaimed): shared_buffers, wal_buffers
// and the rest (lock tables, CLOG buffers, ...), about 1/32 more plus 8 MB.
inline sim::Bytes shared_memory_size(const PostgresConfig& c) {
  return c.shared_buffers + effective_wal_buffers(c) + c.shared_buffers / 32 + 8 * sim::kMiB;
}

}  // namespace ckptsim::postgres
