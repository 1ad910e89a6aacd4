// models/disk/make_device.h
//
// Builds the device a preset describes: one HDD or SSD (kind), mirrored by
// md RAID1 when mirrors > 1, behind a battery-backed controller cache when
// controller_cache > 0, and as a cloud block volume (throttled_volume.h)
// when the preset gives the volume's limits or round trip; `instance` is the
// host's own limits in front of all its volumes, or null.
//
// Each member draws its randomness from the seed and its own name
// ("<name>/sda", "<name>/sdb" for mirrors), so identical runs give identical
// completion times and adding a device never shifts another's numbers.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "models/disk/device.h"
#include "models/disk/device_config.h"
#include "models/disk/io_limits.h"
#include "sim/simulator.h"

namespace ckptsim::disk {

std::unique_ptr<Device> make_device(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed,
                                    std::string_view name, IoLimits* instance = nullptr);

}  // namespace ckptsim::disk
