// scenarios/settings_postgres.cpp
//
// PostgreSQL GUCs. Ranges follow PostgreSQL 17 where releases differ
// (checkpoint_timeout up to 1d, bgwriter_lru_maxpages up to INT_MAX/2); a
// version preset changes defaults, never the accepted range.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_postgres(Schema<postgres::PostgresConfig>& s) {
  using postgres::PostgresConfig;
  using sim::kDay;
  using sim::kGiB;
  using sim::kKiB;
  using sim::kMiB;
  using sim::kMicrosecond;
  using sim::kMillisecond;
  using sim::kSecond;
  s.choice("version", &PostgresConfig::version, preset_names("postgres"))
      .bytes("shared_buffers", &PostgresConfig::shared_buffers, kBlock, 128 * kKiB)
      .duration("checkpoint_timeout", &PostgresConfig::checkpoint_timeout, kSecond, 30 * kSecond, kDay)
      .real("checkpoint_completion_target", &PostgresConfig::checkpoint_completion_target, 0, 1)
      .integer("checkpoint_segments", &PostgresConfig::checkpoint_segments, 1, kIntMax)
      .bytes("max_wal_size", &PostgresConfig::max_wal_size, kMiB, 32 * kMiB)
      .bytes("min_wal_size", &PostgresConfig::min_wal_size, kMiB, 32 * kMiB)
      .duration("checkpoint_warning", &PostgresConfig::checkpoint_warning, kSecond, 0, kIntMax * kSecond)
      .boolean("checkpoint_sorting", &PostgresConfig::checkpoint_sorting)
      .bytes("checkpoint_flush_after", &PostgresConfig::checkpoint_flush_after, kBlock, 0, 2 * kMiB)
      .duration("bgwriter_delay", &PostgresConfig::bgwriter_delay, kMillisecond, 10 * kMillisecond, 10 * kSecond)
      .integer("bgwriter_lru_maxpages", &PostgresConfig::bgwriter_lru_maxpages, 0, 1073741823)
      .real("bgwriter_lru_multiplier", &PostgresConfig::bgwriter_lru_multiplier, 0, 10)
      .bytes("bgwriter_flush_after", &PostgresConfig::bgwriter_flush_after, kBlock, 0, 2 * kMiB)
      .bytes("backend_flush_after", &PostgresConfig::backend_flush_after, kBlock, 0, 2 * kMiB)
      .bytes_or_auto("wal_buffers", &PostgresConfig::wal_buffers, kBlock, 64 * kKiB, 2 * kGiB)
      .boolean("full_page_writes", &PostgresConfig::full_page_writes)
      .choice_or_boolean("wal_compression", &PostgresConfig::wal_compression, postgres::kWalCompressionNames,
                         postgres::WalCompression::Pglz, postgres::WalCompression::Off)
      .boolean("fsync", &PostgresConfig::fsync)
      .choice("wal_sync_method", &PostgresConfig::wal_sync_method, postgres::kWalSyncMethodNames)
      // Without a synchronous standby (none is modelled), local, remote_write and
      // remote_apply wait for the local WAL flush, as on does (SyncRepWaitForLSN).
      .boolean("synchronous_commit", &PostgresConfig::synchronous_commit, {"local", "remote_write", "remote_apply"})
      .duration("wal_writer_delay", &PostgresConfig::wal_writer_delay, kMillisecond, kMillisecond, 10 * kSecond)
      .bytes("wal_writer_flush_after", &PostgresConfig::wal_writer_flush_after, kBlock, 0, kIntMax * kBlock)
      .duration("commit_delay", &PostgresConfig::commit_delay, kMicrosecond, 0, 100000 * kMicrosecond)
      .integer("commit_siblings", &PostgresConfig::commit_siblings, 0, 1000)
      .boolean("log_checkpoints", &PostgresConfig::log_checkpoints)
      .boolean("track_wal_io_timing", &PostgresConfig::track_wal_io_timing)
      .boolean("data_checksums", &PostgresConfig::data_checksums)
      .boolean("wal_log_hints", &PostgresConfig::wal_log_hints)
      .choice("io_method", &PostgresConfig::io_method, postgres::kIoMethodNames)
      .integer("io_workers", &PostgresConfig::io_workers, 1, 32);
}

}  // namespace ckptsim::scenarios
