// scenarios/settings.cpp
//
// One schema per component. Ranges follow PostgreSQL 17 where releases
// differ (checkpoint_timeout up to 1d, bgwriter_lru_maxpages up to
// INT_MAX/2); a version preset changes defaults, never the accepted range.
#include "scenarios/settings.h"

#include <cstdint>
#include <limits>

namespace ckptsim::scenarios {

namespace {

using sim::kDay;
using sim::kGiB;
using sim::kHour;
using sim::kKiB;
using sim::kMicrosecond;
using sim::kMillisecond;
using sim::kMiB;
using sim::kSecond;

constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
constexpr sim::Bytes kBlock = 8 * kKiB;  // PostgreSQL's page: the unit of buffer GUCs

std::vector<std::string> with_empty(std::vector<std::string> names) {
  names.insert(names.begin(), "");
  return names;
}

Schema<pgbench::PgbenchConfig> load_schema(bool with_scale) {
  using pgbench::PgbenchConfig;
  Schema<PgbenchConfig> s;
  s.choice("builtin", &PgbenchConfig::builtin, {"tpcb-like", "simple-update", "select-only"});
  if (with_scale) s.integer("scale", &PgbenchConfig::scale, 1, 100000);
  s.integer("clients", &PgbenchConfig::clients, 1, 10000)
      .integer("threads", &PgbenchConfig::threads, 1, 10000)
      .duration("duration", &PgbenchConfig::duration, kSecond, 0)
      .integer("transactions", &PgbenchConfig::transactions, 0)
      .real("rate", &PgbenchConfig::rate, 0)
      .duration("latency_limit", &PgbenchConfig::latency_limit, kMillisecond, 0)
      .duration("progress", &PgbenchConfig::progress, kSecond, kMillisecond, kHour)
      .choice("protocol", &PgbenchConfig::protocol, {"simple", "extended", "prepared"});
  return s;
}

}  // namespace

Schemas make_schemas() {
  using disk::DeviceConfig;
  using os::OsConfig;
  using postgres::PostgresConfig;
  const std::vector<std::string> devices = preset_names("device");
  Schemas s;
  s.hardware.integer("cpus", &HardwareConfig::cpus, 1, 1024)
      .bytes("ram", &HardwareConfig::ram, kMiB, 256 * kMiB)
      .choice("device", &HardwareConfig::device, devices)
      .choice("wal_device", &HardwareConfig::wal_device, with_empty(devices));

  s.device.choice("kind", &DeviceConfig::kind, {"hdd", "ssd", "raid1", "raid-bbwc"})
      .bytes("capacity", &DeviceConfig::capacity, kMiB, 1)
      .duration("read_latency", &DeviceConfig::read_latency, kMillisecond, 1)
      .duration("write_latency", &DeviceConfig::write_latency, kMillisecond, 1);

  s.os.choice("kernel", &OsConfig::kernel, preset_names("os"))
      .integer("vm.dirty_background_ratio", &OsConfig::dirty_background_ratio, 0, 100)
      .integer("vm.dirty_ratio", &OsConfig::dirty_ratio, 0, 100)
      .bytes("vm.dirty_background_bytes", &OsConfig::dirty_background_bytes, 1, 0)
      .bytes("vm.dirty_bytes", &OsConfig::dirty_bytes, 1, 0)
      .integer("vm.dirty_expire_centisecs", &OsConfig::dirty_expire_centisecs, 0, kIntMax)
      .integer("vm.dirty_writeback_centisecs", &OsConfig::dirty_writeback_centisecs, 0, kIntMax);

  s.postgres.choice("version", &PostgresConfig::version, preset_names("postgres"))
      .bytes("shared_buffers", &PostgresConfig::shared_buffers, kBlock, 128 * kKiB)
      .duration("checkpoint_timeout", &PostgresConfig::checkpoint_timeout, kSecond, 30 * kSecond, kDay)
      .real("checkpoint_completion_target", &PostgresConfig::checkpoint_completion_target, 0, 1)
      .integer("checkpoint_segments", &PostgresConfig::checkpoint_segments, 1, kIntMax)
      .bytes("max_wal_size", &PostgresConfig::max_wal_size, kMiB, 32 * kMiB)
      .bytes("min_wal_size", &PostgresConfig::min_wal_size, kMiB, 32 * kMiB)
      .boolean("checkpoint_sorting", &PostgresConfig::checkpoint_sorting)
      .bytes("checkpoint_flush_after", &PostgresConfig::checkpoint_flush_after, kBlock, 0, 2 * kMiB)
      .duration("bgwriter_delay", &PostgresConfig::bgwriter_delay, kMillisecond, 10 * kMillisecond,
                10 * kSecond)
      .integer("bgwriter_lru_maxpages", &PostgresConfig::bgwriter_lru_maxpages, 0, 1073741823)
      .real("bgwriter_lru_multiplier", &PostgresConfig::bgwriter_lru_multiplier, 0, 10)
      .bytes("bgwriter_flush_after", &PostgresConfig::bgwriter_flush_after, kBlock, 0, 2 * kMiB)
      .bytes("backend_flush_after", &PostgresConfig::backend_flush_after, kBlock, 0, 2 * kMiB)
      .bytes_or_auto("wal_buffers", &PostgresConfig::wal_buffers, kBlock, 64 * kKiB, 2 * kGiB)
      .boolean("full_page_writes", &PostgresConfig::full_page_writes)
      .boolean("synchronous_commit", &PostgresConfig::synchronous_commit)
      .duration("wal_writer_delay", &PostgresConfig::wal_writer_delay, kMillisecond, kMillisecond,
                10 * kSecond)
      .duration("commit_delay", &PostgresConfig::commit_delay, kMicrosecond, 0, 100000 * kMicrosecond)
      .boolean("log_checkpoints", &PostgresConfig::log_checkpoints);

  s.pgbench = load_schema(true);
  s.warmup = load_schema(false);
  return s;
}

std::vector<std::string> Schemas::names(const std::string& section) const {
  if (section == "hardware") return hardware.names();
  if (section == "os") return os.names();
  if (section == "postgres") return postgres.names();
  if (section == "pgbench") return pgbench.names();
  if (section == "warmup") return warmup.names();
  return {};
}

}  // namespace ckptsim::scenarios
