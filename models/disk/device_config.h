// models/disk/device_config.h
//
// The settings of one storage device, filled from a device preset
// (scenarios/presets/device/NAME.json) chosen by hardware.device or
// hardware.wal_device.
//
// PLACEHOLDER: until the device models land, a device is described only by
// the mean service time of one random 8 kB read and of one synchronous small
// write (a WAL flush). The HDD / SSD / RAID1 models replace these with their
// own parameters.
#pragma once

#include <string>

#include "sim/time.h"

namespace ckptsim::disk {

struct DeviceConfig {
  std::string name;                                       // preset name, e.g. "raid1-hdd-7200"
  std::string description;                                // one line, shown by `ckptsim presets`
  std::string kind = "hdd";                               // hdd, ssd, raid1, raid-bbwc
  sim::Bytes capacity = 500 * sim::kGiB;
  sim::Duration read_latency = 8 * sim::kMillisecond;     // random 8 kB read
  sim::Duration write_latency = 200 * sim::kMicrosecond;  // small synchronous write + flush
};

}  // namespace ckptsim::disk
