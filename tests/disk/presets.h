// tests/disk/presets.h
//
// The shipped device presets as DeviceConfig values, read from
// scenarios/presets/device/*.json with the scenario loader's own names and
// units, so that the tests measure exactly what a scenario would get. (The
// disk tests link only the disk layer, hence this small reader.)
#pragma once

#include <string>

#include "models/disk/device_config.h"

namespace ckptsim::disk::testing {

DeviceConfig preset(const std::string& name);

}  // namespace ckptsim::disk::testing
