// scenarios/settings_device.cpp
//
// A storage device, from its preset file (scenarios/presets/device/NAME.json).
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_device(Schema<disk::DeviceConfig>& s) {
  using disk::DeviceConfig;
  using sim::kMillisecond;
  using sim::kMiB;
  s.choice("kind", &DeviceConfig::kind, {"hdd", "ssd", "raid1", "raid-bbwc"})
      .bytes("capacity", &DeviceConfig::capacity, kMiB, 1)
      .duration("read_latency", &DeviceConfig::read_latency, kMillisecond, 1)
      .duration("write_latency", &DeviceConfig::write_latency, kMillisecond, 1);
}

}  // namespace ckptsim::scenarios
