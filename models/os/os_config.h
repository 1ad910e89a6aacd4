// models/os/os_config.h
//
// Kernel settings, with sysctl names in the scenario ("vm.dirty_ratio").
// The kernel preset (scenarios/presets/os/NAME.json, chosen by os.kernel)
// sets the defaults and behaviours of one kernel generation.
#pragma once

#include <cstdint>
#include <string>

#include "sim/time.h"

namespace ckptsim::os {

struct OsConfig {
  std::string kernel = "linux-modern";
  std::int64_t dirty_background_ratio = 10;     // vm.dirty_background_ratio, percent
  std::int64_t dirty_ratio = 20;                // vm.dirty_ratio, percent
  sim::Bytes dirty_background_bytes = 0;        // vm.dirty_background_bytes, 0 = use the ratio
  sim::Bytes dirty_bytes = 0;                   // vm.dirty_bytes, 0 = use the ratio
  std::int64_t dirty_expire_centisecs = 3000;   // vm.dirty_expire_centisecs
  std::int64_t dirty_writeback_centisecs = 500; // vm.dirty_writeback_centisecs
};

}  // namespace ckptsim::os
