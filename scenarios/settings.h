// scenarios/settings.h
//
// The settings of each component: names, base units and ranges, as their
// owners define them (PostgreSQL GUCs, Linux sysctls, pgbench options). The
// choices of postgres.version, os.kernel and hardware.device are the preset
// files present when the schemas are made.
#pragma once

#include <string>
#include <vector>

#include "scenarios/scenario.h"
#include "scenarios/schema.h"

namespace ckptsim::scenarios {

// The setting sections of a scenario, in file order. "device" holds the
// scenario's own values over the data device's preset (hardware.device).
inline const std::vector<std::string> kSections{"hardware", "device", "os", "postgres", "pgbench", "init", "warmup"};

struct Schemas {
  Schema<HardwareConfig> hardware;
  Schema<disk::DeviceConfig> device;  // presets/device/<name>.json, then the "device" section
  Schema<os::OsConfig> os;
  Schema<postgres::PostgresConfig> postgres;
  Schema<pgbench::PgbenchConfig> pgbench;
  Schema<pgbench::InitConfig> init;       // the host's state after pgbench -i
  Schema<pgbench::PgbenchConfig> warmup;  // pgbench's, less scale

  // Setting names of one of kSections (empty for an unknown section).
  std::vector<std::string> names(const std::string& section) const;
};

// One function per component declares its settings (settings_<component>.cpp),
// so that each model's owner edits only its own file.
inline constexpr std::int64_t kIntMax = 2147483647;  // INT_MAX, PostgreSQL's usual upper bound
inline constexpr sim::Bytes kBlock = 8 * sim::kKiB;  // PostgreSQL's page: the unit of buffer GUCs

void describe_hardware(Schema<HardwareConfig>& s, const std::vector<std::string>& devices);
void describe_device(Schema<disk::DeviceConfig>& s);
// The parts of a device, each with its own rows (settings_device.cpp), and
// the prefix before their names in a device or the hardware section.
void describe_controller(Schema<disk::ControllerConfig>& s);  // under kControllerPrefix
void describe_hdd(Schema<disk::HddConfig>& s);
void describe_ssd(Schema<disk::SsdConfig>& s);
void describe_volume(Schema<disk::VolumeConfig>& s);       // under kVolumePrefix
void describe_io_limits(Schema<disk::IoLimitsConfig>& s);  // a volume's, or the instance's under kInstancePrefix
inline const std::string kControllerPrefix = "controller_";
inline const std::string kVolumePrefix = "volume_";
inline const std::string kInstancePrefix = "instance_";

// The keys of one part's rows, as a section spells them (`prefix` + name).
template <class Part>
std::vector<std::string> part_keys(void (*describe)(Schema<Part>&), const std::string& prefix = "") {
  Schema<Part> part;
  describe(part);
  std::vector<std::string> keys;
  for (const std::string& name : part.names()) keys.push_back(prefix + name);
  return keys;
}
void describe_os(Schema<os::OsConfig>& s);
// blk-throttle's limits, under kBlkioThrottlePrefix (the data device) and
// kWalBlkioThrottlePrefix: `"blkio_throttle": {"write_iops": 300}` in a
// scenario is the key blkio_throttle.write_iops, as --set and a grid spell it.
void describe_blkio_throttle(Schema<os::BlkThrottleConfig>& s);
inline const std::string kBlkioThrottlePrefix = "blkio_throttle.";
inline const std::string kWalBlkioThrottlePrefix = "wal_blkio_throttle.";
void describe_postgres(Schema<postgres::PostgresConfig>& s);
void describe_pgbench(Schema<pgbench::PgbenchConfig>& s, bool with_scale);
void describe_init(Schema<pgbench::InitConfig>& s);

Schemas make_schemas();

// The postgres section's rows (describe_postgres), made once: what the version
// gates, `check`, the chain rules and pasted-conf recognition read of a setting.
const Schema<postgres::PostgresConfig>& postgres_rows();
// "9.6" for 90600, "18" for 180000: a release as its notes name it.
std::string release_name(int version_num);

}  // namespace ckptsim::scenarios
