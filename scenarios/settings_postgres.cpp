// scenarios/settings_postgres.cpp
//
// PostgreSQL GUCs, one row each as guc_tables.c keeps them. Ranges follow
// PostgreSQL 17 where releases differ (checkpoint_timeout up to 1d,
// bgwriter_lru_maxpages up to INT_MAX/2); a version preset changes defaults,
// never the accepted range (version_gates.cpp refuses the values a release's
// own range lacks).
//
// Contexts: guc_tables.c of 17 (guc.c before 16), the same in every release
// modelled unless a row says otherwise. Releases: each release's notes
// (release-9.5.sgml: max_wal_size and min_wal_size replace checkpoint_segments,
// wal_compression; release-9.6.sgml: the *_flush_after settings;
// release-9.3.sgml: data checksums; release-9.4.sgml: wal_log_hints;
// release-14.sgml: track_wal_io_timing; release-18.sgml: io_method, io_workers).
// kModelledReleases: the setting is older than 9.0, the first release ckptsim
// models, so no release it runs lacks it.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

namespace {
constexpr int kModelledReleases = 90000;
}  // namespace

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
          .model_only("the release preset ckptsim runs (scenarios/presets/postgres), not a postgresql.conf line")
      .bytes("shared_buffers", &PostgresConfig::shared_buffers, kBlock, 128 * kKiB).since(kModelledReleases).context(Context::Postmaster)
      .integer("max_connections", &PostgresConfig::max_connections, 1, 262143).since(kModelledReleases).context(Context::Postmaster)
      .duration("checkpoint_timeout", &PostgresConfig::checkpoint_timeout, kSecond, 30 * kSecond, kDay).since(kModelledReleases).context(Context::Sighup)
      .real("checkpoint_completion_target", &PostgresConfig::checkpoint_completion_target, 0, 1).since(kModelledReleases).context(Context::Sighup)
      .integer("checkpoint_segments", &PostgresConfig::checkpoint_segments, 1, kIntMax)
          .since(kModelledReleases).until(90500).other_releases_ignore().context(Context::Sighup)
      .bytes("max_wal_size", &PostgresConfig::max_wal_size, kMiB, 32 * kMiB).since(90500).other_releases_ignore().context(Context::Sighup)
      .bytes("min_wal_size", &PostgresConfig::min_wal_size, kMiB, 32 * kMiB).since(90500).other_releases_ignore().context(Context::Sighup)
      .duration("checkpoint_warning", &PostgresConfig::checkpoint_warning, kSecond, 0, kIntMax * kSecond)
          .since(kModelledReleases).context(Context::Sighup)
      .boolean("checkpoint_sorting", &PostgresConfig::checkpoint_sorting)
          .context(Context::Sighup)
          .model_only("the on/off switch of the 2015 sorting patch (E1); 9.6 sorts unconditionally. Read as the checkpointer reads its GUCs, so a chain may vary it")
      .bytes("checkpoint_flush_after", &PostgresConfig::checkpoint_flush_after, kBlock, 0, 2 * kMiB)
          .since(90600).context(Context::Sighup)
      .duration("bgwriter_delay", &PostgresConfig::bgwriter_delay, kMillisecond, 10 * kMillisecond, 10 * kSecond)
          .since(kModelledReleases).context(Context::Sighup)
      .integer("bgwriter_lru_maxpages", &PostgresConfig::bgwriter_lru_maxpages, 0, 1073741823)
          .since(kModelledReleases).context(Context::Sighup)
      .real("bgwriter_lru_multiplier", &PostgresConfig::bgwriter_lru_multiplier, 0, 10)
          .since(kModelledReleases).context(Context::Sighup)
      .bytes("bgwriter_flush_after", &PostgresConfig::bgwriter_flush_after, kBlock, 0, 2 * kMiB)
          .since(90600).context(Context::Sighup)
      .bytes("backend_flush_after", &PostgresConfig::backend_flush_after, kBlock, 0, 2 * kMiB)
          .since(90600).context(Context::User)
      .bytes_or_auto("wal_buffers", &PostgresConfig::wal_buffers, kBlock, 64 * kKiB, 2 * kGiB)
          .since(kModelledReleases).context(Context::Postmaster)
      .boolean("full_page_writes", &PostgresConfig::full_page_writes).since(kModelledReleases).context(Context::Sighup)
      .choice_or_boolean("wal_compression", &PostgresConfig::wal_compression, postgres::kWalCompressionNames,
                         postgres::WalCompression::Pglz, postgres::WalCompression::Off)
          .since(90500).context(Context::Superuser)
      .boolean("fsync", &PostgresConfig::fsync)
          .since(kModelledReleases).context(Context::Sighup)
          .start_only("ckptsim's server reads fsync at its start only, so a change would need a restart")
      .choice("wal_sync_method", &PostgresConfig::wal_sync_method, postgres::kWalSyncMethodNames)
          .since(kModelledReleases).context(Context::Sighup)
      // Without a synchronous standby (none is modelled), local, remote_write and
      // remote_apply wait for the local WAL flush, as on does (SyncRepWaitForLSN).
      .boolean("synchronous_commit", &PostgresConfig::synchronous_commit, {"local", "remote_write", "remote_apply"})
          .since(kModelledReleases).context(Context::User)
      .duration("wal_writer_delay", &PostgresConfig::wal_writer_delay, kMillisecond, kMillisecond, 10 * kSecond)
          .since(kModelledReleases).context(Context::Sighup)
      .bytes("wal_writer_flush_after", &PostgresConfig::wal_writer_flush_after, kBlock, 0, kIntMax * kBlock)
          .since(90600).context(Context::Sighup)
      .duration("commit_delay", &PostgresConfig::commit_delay, kMicrosecond, 0, 100000 * kMicrosecond)
          .since(kModelledReleases).context(Context::Superuser)  // PGC_USERSET in older guc.c
      .integer("commit_siblings", &PostgresConfig::commit_siblings, 0, 1000).since(kModelledReleases).context(Context::User)
      .boolean("log_checkpoints", &PostgresConfig::log_checkpoints).since(kModelledReleases).context(Context::Sighup)
      .boolean("track_wal_io_timing", &PostgresConfig::track_wal_io_timing).since(140000).context(Context::Superuser)
      .boolean("data_checksums", &PostgresConfig::data_checksums)
          .since(90300, "9.3's initdb").resolved_drops().context(Context::Internal)
      .boolean("wal_log_hints", &PostgresConfig::wal_log_hints).since(90400).resolved_drops().context(Context::Postmaster)
      .choice("io_method", &PostgresConfig::io_method, postgres::kIoMethodNames).since(180000).resolved_drops().context(Context::Postmaster)
      .integer("io_workers", &PostgresConfig::io_workers, 1, 32).since(180000).resolved_drops().context(Context::Sighup);
}


const Schema<postgres::PostgresConfig>& postgres_rows() {
  static const Schema<postgres::PostgresConfig> rows = [] {
    Schema<postgres::PostgresConfig> s;
    describe_postgres(s);
    return s;
  }();
  return rows;
}

std::string release_name(int version_num) {
  if (version_num >= 100000) return std::to_string(version_num / 10000);
  return std::to_string(version_num / 10000) + "." + std::to_string(version_num / 100 % 100);
}

}  // namespace ckptsim::scenarios
