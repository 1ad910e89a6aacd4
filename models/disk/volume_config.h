// models/disk/volume_config.h
//
// The settings of a cloud block volume in front of the device: what
// models/disk/throttled_volume.h simulates. Its limits are one IoLimits
// (io_limits.h), the same settings as an instance's own limits; the volume
// adds the network round trip. Nothing set means no volume: the device is
// reached directly.
#pragma once

#include "models/disk/io_limits.h"
#include "sim/time.h"

namespace ckptsim::disk {

struct VolumeConfig {
  IoLimitsConfig limits;      // the volume type's IOPS and throughput
  sim::Duration latency = 0;  // network round trip per I/O, host to storage and back

  bool present() const { return limits.limited() || latency > 0; }
};

}  // namespace ckptsim::disk
