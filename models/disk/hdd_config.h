// models/disk/hdd_config.h
//
// The settings of one hard disk drive's mechanism and firmware: what
// models/disk/hdd.h (and its parts hdd_geometry.h, hdd_head.h,
// hdd_write_cache.h, hdd_destage.h, hdd_readahead.h) simulates. Figures and
// sources: docs/reference/os-disk-model.md 4.1-4.5; the defaults are the
// hdd-7200-sata preset's (4.7). The host link, queue depth and capacity are
// the device's own (device_config.h), shared with an SSD.
#pragma once

#include <cstdint>

#include "sim/enum_names.h"
#include "sim/time.h"

namespace ckptsim::disk {

// How the HDD firmware picks the next dirty extent to destage (hdd.h).
enum class DestageOrder : std::uint8_t { Positioning, Lba, Fifo };
inline constexpr sim::EnumNames<DestageOrder, 3> kDestageOrderNames{
    {{"positioning", DestageOrder::Positioning}, {"lba", DestageOrder::Lba}, {"fifo", DestageOrder::Fifo}}};

struct HddConfig {
  sim::Duration command_overhead = 150 * sim::kMicrosecond;  // firmware time per command (t_cmd)
  sim::Duration command_setup = 0;                           // per command and destage, never overlapped (hdd.h)
  std::int64_t rpm = 7200;
  std::int64_t surfaces = 4;                              // heads H
  std::int64_t cylinders = 200000;                        // synthetic: only distances matter
  sim::Duration seek_single = 1100 * sim::kMicrosecond;   // one cylinder (t1; 7K320: 1.0 read / 1.1 write)
  sim::Duration seek_average = 8500 * sim::kMicrosecond;  // mean over uniform random pairs (ta)
  sim::Duration seek_full = 17 * sim::kMillisecond;       // full stroke (tf)
  sim::Duration write_settle = 1 * sim::kMillisecond;     // extra settling before writing (t_ws)
  sim::Duration head_switch = 1 * sim::kMillisecond;      // track / head switch, also the track skew
  sim::Bytes media_rate_outer = 150 * sim::kMiB;          // per second, zone 0
  sim::Bytes media_rate_inner = 75 * sim::kMiB;           // per second, innermost zone
  sim::Duration aging = 1500 * sim::kMillisecond;         // SPTF starvation bound: older commands go first
  bool write_cache = true;                                // WCE: volatile write-back cache
  sim::Bytes write_cache_size = 8 * sim::kMiB;            // effective dirty space (D_max)
  std::int64_t write_cache_extents = 128;                 // dirty extents at most (E_max)
  std::int64_t destage_window = 0;                        // oldest dirty extents a destage choice considers; 0 = all
  DestageOrder destage_order = DestageOrder::Positioning;
  sim::Bytes read_segment = 2 * sim::kMiB;  // read-ahead after a media read, while idle
};

}  // namespace ckptsim::disk
