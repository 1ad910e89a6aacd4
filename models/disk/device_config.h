// models/disk/device_config.h
//
// The settings of one storage device, filled from a device preset
// (scenarios/presets/device/NAME.json) chosen by hardware.device or
// hardware.wal_device. Flat keys, as users write them; here they are split by
// the model each configures: one member disk or SSD (kind: its HddConfig or
// SsdConfig applies), optionally mirrored (mirrors = 2 is md RAID1) and
// optionally behind a RAID controller's battery-backed write cache
// (ControllerConfig, controller_cache > 0).
//
// A cloud block volume (ebs-gp3, azure-premium-p20, ...) is the same device
// behind the provider's limits (VolumeConfig, throttled_volume.h):
// volume_iops > 0 or volume_mb_s > 0 or volume_latency > 0 puts them in front
// of it. The volume's size is `capacity`; an ssd kind counts operations of up
// to 256 KiB, an hdd kind up to 1 MiB (volume_operations.h).
//
// Rates are bytes per second ("150MB" in a preset is 150 MiB/s). Defaults are
// the hdd-7200-sata preset's (docs/reference/os-disk-model.md 4.7) and the ssd-sata one's
// (5.5) for the flash parameters.
#pragma once

#include <cstdint>
#include <string>

#include "models/disk/controller_config.h"
#include "models/disk/hdd_config.h"
#include "models/disk/ssd_config.h"
#include "models/disk/volume_config.h"
#include "sim/enum_names.h"
#include "sim/time.h"

namespace ckptsim::disk {

// What one member of the device is.
enum class Kind : std::uint8_t { Hdd, Ssd };
inline constexpr sim::EnumNames<Kind, 2> kKindNames{{{"hdd", Kind::Hdd}, {"ssd", Kind::Ssd}}};

// The host interface: SATA cannot queue a cache flush (it drains the queue); SAS and NVMe can.
enum class Interface : std::uint8_t { Sata, Sas, Nvme };
inline constexpr sim::EnumNames<Interface, 3> kInterfaceNames{
    {{"sata", Interface::Sata}, {"sas", Interface::Sas}, {"nvme", Interface::Nvme}}};

struct DeviceConfig {
  std::string name;         // preset name, e.g. "raid1-hdd-7200"
  std::string description;  // one line, shown by `ckptsim presets`
  Kind kind = Kind::Hdd;
  Interface interface = Interface::Sata;
  sim::Bytes capacity = 500 * sim::kGiB;

  // Arrangement.
  std::int64_t mirrors = 1;     // 2: md RAID1 of two identical members
  ControllerConfig controller;  // none unless controller_cache > 0

  // Host interface (both kinds).
  std::int64_t queue_depth = 31;           // NCQ tags usable, SAS queue depth, NVMe queue size
  sim::Bytes link_rate = 300 * sim::kMiB;  // per second: SATA 3 Gb/s ~ 300 MB/s

  HddConfig hdd;        // read when kind is hdd
  SsdConfig ssd;        // read when kind is ssd
  VolumeConfig volume;  // none unless it has a limit or a latency
};

}  // namespace ckptsim::disk
