// models/disk/read_cost.h
//
// A device's nominal read costs, from its settings alone, for estimates that
// simulate nothing (crash recovery's time in crash.json, models/postgres/crash.h):
// - a random read: an HDD's command overhead, average seek, half a turn and
//   the transfer at the mean of its outer and inner media rates; an SSD's
//   host and FTL overheads, its read time and the transfer over one channel;
//   with a controller cache in front, the controller's overhead on top;
// - the sequential read rate: an HDD's mean media rate, an SSD's channels
//   together, either capped by the link.
// Left out: queueing, the device's caches (a power loss empties them),
// readahead, and a RAID1's members (the array's own settings are read).
#pragma once

#include "models/disk/device_config.h"
#include "sim/time.h"

namespace ckptsim::disk {

// Seconds for one random read of `bytes`.
double random_read_seconds(const DeviceConfig& device, sim::Bytes bytes);
// Bytes per second of a long sequential read.
double sequential_read_bytes_per_second(const DeviceConfig& device);

}  // namespace ckptsim::disk
