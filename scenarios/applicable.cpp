#include "scenarios/applicable.h"

#include <initializer_list>

#include "models/postgres/version.h"
#include "scenarios/settings.h"

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
  const int version = postgres::Version(config.version).num();
  postgres_rows().each_row([&](const std::string& name, const SettingFacts& facts) {
    if (facts.resolved_drops && !facts.in_release(version)) postgres.erase(name);
  });
}

json applicable_postgres_settings(const json& postgres, const postgres::PostgresConfig& config) {
  json out = postgres;
  const int version = postgres::Version(config.version).num();
  postgres_rows().each_row([&](const std::string& name, const SettingFacts& facts) {
    if (facts.since != 0 && !facts.in_release(version)) out.erase(name);
  });
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
