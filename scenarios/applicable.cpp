#include "scenarios/applicable.h"

#include <string>
#include <vector>

#include "models/postgres/version.h"
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

namespace {

void erase_keys(json& section, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) section.erase(key);
}

}  // namespace

json applicable_device_settings(const json& device, const disk::DeviceConfig& config) {
  json out = device;
  if (config.kind == disk::Kind::Hdd) {
    std::vector<std::string> flash = part_keys(describe_ssd);
    // `check` has always shown write_overhead on an HDD too (the hand-kept
    // list these rows replaced missed it): kept, so that its output stays as it was.
    std::erase(flash, "write_overhead");
    erase_keys(out, flash);
  } else {
    erase_keys(out, part_keys(describe_hdd));
  }
  if (!config.controller.present()) {
    std::vector<std::string> controller = part_keys(describe_controller, kControllerPrefix);
    std::erase(controller, kControllerPrefix + "cache");  // its 0 says there is none
    erase_keys(out, controller);
  }
  if (!config.volume.present()) erase_keys(out, part_keys(describe_volume, kVolumePrefix));
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
