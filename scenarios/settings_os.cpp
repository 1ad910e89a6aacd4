// scenarios/settings_os.cpp
//
// Kernel settings, by their sysctl names.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_os(Schema<os::OsConfig>& s) {
  using os::OsConfig;
  s.choice("kernel", &OsConfig::kernel, preset_names("os"))
      .integer("vm.dirty_background_ratio", &OsConfig::dirty_background_ratio, 0, 100)
      .integer("vm.dirty_ratio", &OsConfig::dirty_ratio, 0, 100)
      .bytes("vm.dirty_background_bytes", &OsConfig::dirty_background_bytes, 1, 0)
      .bytes("vm.dirty_bytes", &OsConfig::dirty_bytes, 1, 0)
      .integer("vm.dirty_expire_centisecs", &OsConfig::dirty_expire_centisecs, 0, kIntMax)
      .integer("vm.dirty_writeback_centisecs", &OsConfig::dirty_writeback_centisecs, 0, kIntMax);
}

}  // namespace ckptsim::scenarios
