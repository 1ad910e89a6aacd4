#include "scenarios/applicable.h"

#include <initializer_list>

#include "models/postgres/version.h"

namespace ckptsim::scenarios {

namespace {

void erase_keys(json& section, std::initializer_list<const char*> keys) {
  for (const char* key : keys) section.erase(key);
}

}  // namespace

json applicable_device_settings(const json& device, const disk::DeviceConfig& config) {
  json out = device;
  if (config.kind == disk::Kind::Hdd) {
    erase_keys(out, {"channels", "dies_per_channel", "planes", "flash_page", "pages_per_block", "read_time",
                     "program_time", "erase_time", "channel_rate", "ftl_overhead", "host_overhead", "host_iops_cap",
                     "write_buffer", "over_provisioning", "power_loss_protection", "flush_overhead"});
  } else {
    erase_keys(out, {"command_overhead", "command_setup", "rpm", "surfaces", "cylinders", "seek_single", "seek_average",
                     "seek_full", "write_settle", "head_switch", "media_rate_outer", "media_rate_inner", "aging",
                     "write_cache", "write_cache_size", "write_cache_extents", "destage_window", "destage_order",
                     "read_segment"});
  }
  if (config.controller_cache == 0) {
    erase_keys(out, {"controller_overhead", "controller_queue_depth", "controller_flush_interval"});
  }
  return out;
}

void erase_settings_release_lacks(json& postgres, const postgres::PostgresConfig& config) {
  const postgres::Version version(config.version);
  if (!version.at_least(90300)) postgres.erase("data_checksums");
  if (!version.at_least(90400)) postgres.erase("wal_log_hints");
  if (!version.at_least(180000)) erase_keys(postgres, {"io_method", "io_workers"});
}

json applicable_postgres_settings(const json& postgres, const postgres::PostgresConfig& config) {
  json out = postgres;
  const postgres::Version version(config.version);
  if (version.has_max_wal_size()) {
    out.erase("checkpoint_segments");
  } else {
    erase_keys(out, {"max_wal_size", "min_wal_size", "wal_compression"});
  }
  if (!version.at_least(90600)) {
    erase_keys(out,
               {"checkpoint_flush_after", "bgwriter_flush_after", "backend_flush_after", "wal_writer_flush_after"});
  }
  if (!version.at_least(140000)) out.erase("track_wal_io_timing");
  erase_settings_release_lacks(out, config);
  if (out.contains("synchronous_commit")) out["synchronous_commit"] = config.synchronous_commit ? "on" : "off";
  return out;
}

json applicable_settings(const Scenario& s) {
  json out = s.resolved;
  if (out.contains("devices")) {
    out["devices"]["data"] = applicable_device_settings(out["devices"]["data"], s.device);
    out["devices"]["wal"] = applicable_device_settings(out["devices"]["wal"], s.wal_device);
  }
  if (out.contains("postgres")) out["postgres"] = applicable_postgres_settings(out["postgres"], s.postgres);
  return out;
}

}  // namespace ckptsim::scenarios
