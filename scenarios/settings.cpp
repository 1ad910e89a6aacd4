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
      .integer("instance_iops", &HardwareConfig::instance_iops, 0, 10000000)
      .integer("instance_burst_iops", &HardwareConfig::instance_burst_iops, 0, 10000000)
      .integer("instance_burst_credits", &HardwareConfig::instance_burst_credits, 0, std::int64_t{1} << 40)
      .integer("instance_iops_refill", &HardwareConfig::instance_iops_refill, 0, 10000000)
      .bytes("instance_mb_s", &HardwareConfig::instance_mb_s, sim::kMiB, 0, 64 * sim::kGiB)
      .bytes("instance_burst_mb_s", &HardwareConfig::instance_burst_mb_s, sim::kMiB, 0, 64 * sim::kGiB)
      .bytes("instance_burst_bytes", &HardwareConfig::instance_burst_bytes, sim::kMiB, 0, std::int64_t{1} << 50)
      .bytes("instance_mb_s_refill", &HardwareConfig::instance_mb_s_refill, sim::kMiB, 0, 64 * sim::kGiB)
      .real("instance_burst_balance", &HardwareConfig::instance_burst_balance, 0.0, 100.0);
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
