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

// The five setting sections of a scenario, in file order.
inline const std::vector<std::string> kSections{"hardware", "os", "postgres", "pgbench", "warmup"};

struct Schemas {
  Schema<HardwareConfig> hardware;
  Schema<disk::DeviceConfig> device;  // read from presets/device/<name>.json only
  Schema<os::OsConfig> os;
  Schema<postgres::PostgresConfig> postgres;
  Schema<pgbench::PgbenchConfig> pgbench;
  Schema<pgbench::PgbenchConfig> warmup;  // pgbench's, less scale

  // Setting names of one of kSections (empty for an unknown section).
  std::vector<std::string> names(const std::string& section) const;
};

Schemas make_schemas();

}  // namespace ckptsim::scenarios
