// scenarios/settings.cpp
//
// The schemas of all components, assembled from each component's own
// declaration (settings_<component>.cpp). The choices of postgres.version,
// os.kernel and hardware.device are the preset files present when the
// schemas are made.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

namespace {

std::vector<std::string> with_empty(std::vector<std::string> names) {
  names.insert(names.begin(), "");
  return names;
}

}  // namespace

void describe_hardware(Schema<HardwareConfig>& s, const std::vector<std::string>& devices) {
  s.integer("cpus", &HardwareConfig::cpus, 1, 1024)
      .bytes("ram", &HardwareConfig::ram, sim::kMiB, 256 * sim::kMiB)
      .choice("device", &HardwareConfig::device, devices)
      .choice("wal_device", &HardwareConfig::wal_device, with_empty(devices))
      // The instance's limits over all its volumes (models/disk/io_limits.h).
      .within(&HardwareConfig::instance, describe_io_limits, kInstancePrefix);
}

void describe_init(Schema<pgbench::InitConfig>& s) {
  s.boolean("drop_caches", &pgbench::InitConfig::drop_caches).boolean("pg_prewarm", &pgbench::InitConfig::pg_prewarm);
}

Schemas make_schemas() {
  Schemas s;
  describe_hardware(s.hardware, preset_names("device"));
  describe_device(s.device);
  describe_os(s.os);
  describe_postgres(s.postgres);
  describe_pgbench(s.pgbench, true);
  describe_init(s.init);
  describe_pgbench(s.warmup, false);
  return s;
}
std::vector<std::string> Schemas::names(const std::string& section) const {
  if (section == "hardware") return hardware.names();
  if (section == "device") return device.names();
  if (section == "os") return os.names();
  if (section == "postgres") return postgres.names();
  if (section == "pgbench") return pgbench.names();
  if (section == "init") return init.names();
  if (section == "warmup") return warmup.names();
  return {};
}

}  // namespace ckptsim::scenarios
