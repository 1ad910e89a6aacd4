// models/disk/device_config.h
//
// The settings of one storage device, filled from a device preset
// (scenarios/presets/device/NAME.json) chosen by hardware.device or
// hardware.wal_device. Flat keys, as the scenario schema has no nested
// objects: one member disk or SSD (kind), optionally mirrored (mirrors = 2 is
// md RAID1) and optionally behind a RAID controller's battery-backed write
// cache (controller_cache > 0).
//
// A cloud block volume (ebs-gp3, azure-premium-p20, ...) is the same device
// behind the provider's limits (throttled_volume.h): volume_iops > 0 or
// volume_mb_s > 0 or volume_latency > 0 puts them in front of it.
//
// Rates are bytes per second ("150MB" in a preset is 150 MiB/s). Defaults are
// the hdd-7200-sata preset's (docs/reference/os-disk-model.md 4.7) and the ssd-sata one's
// (5.5) for the flash parameters.
#pragma once

#include <cstdint>
#include <string>

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

// How the HDD firmware picks the next dirty extent to destage (hdd.h).
enum class DestageOrder : std::uint8_t { Positioning, Lba, Fifo };
inline constexpr sim::EnumNames<DestageOrder, 3> kDestageOrderNames{
    {{"positioning", DestageOrder::Positioning}, {"lba", DestageOrder::Lba}, {"fifo", DestageOrder::Fifo}}};

struct DeviceConfig {
  std::string name;         // preset name, e.g. "raid1-hdd-7200"
  std::string description;  // one line, shown by `ckptsim presets`
  Kind kind = Kind::Hdd;
  Interface interface = Interface::Sata;
  sim::Bytes capacity = 500 * sim::kGiB;

  // Arrangement.
  std::int64_t mirrors = 1;                                    // 2: md RAID1 of two identical members
  sim::Bytes controller_cache = 0;                             // battery-backed write-back cache; 0 = no controller
  sim::Duration controller_overhead = 50 * sim::kMicrosecond;  // per command through the controller
  std::int64_t controller_queue_depth = 256;                   // commands the controller accepts from the host
  sim::Duration controller_flush_interval = 4 * sim::kSecond;  // periodic destage of older dirty data (LSI default)

  // Host interface (both kinds).
  std::int64_t queue_depth = 31;           // NCQ tags usable, SAS queue depth, NVMe queue size
  sim::Bytes link_rate = 300 * sim::kMiB;  // per second: SATA 3 Gb/s ~ 300 MB/s

  // HDD (docs/reference/os-disk-model.md 4.1-4.5).
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

  // SSD (docs/reference/os-disk-model.md 5.1-5.4).
  std::int64_t channels = 8;
  std::int64_t dies_per_channel = 4;
  std::int64_t planes = 2;  // a program moves planes x flash_page at once
  sim::Bytes flash_page = 16 * sim::kKiB;
  std::int64_t pages_per_block = 256;                     // erase block, for the erase share of GC
  sim::Duration read_time = 70 * sim::kMicrosecond;       // tR
  sim::Duration program_time = 1200 * sim::kMicrosecond;  // tPROG
  sim::Duration erase_time = 5 * sim::kMillisecond;       // tBERS
  sim::Bytes channel_rate = 400 * sim::kMiB;              // per second, per channel
  sim::Duration ftl_overhead = 10 * sim::kMicrosecond;    // mapping lookup + ECC per read
  sim::Duration host_overhead = 15 * sim::kMicrosecond;   // controller latency per command
  sim::Duration write_overhead = 0;          // latency a write adds before the buffer takes it (fitted by calibrate)
  std::int64_t host_iops_cap = 90000;        // commands per second the controller handles
  sim::Bytes write_buffer = 64 * sim::kMiB;  // DRAM buffer in front of the flash
  double over_provisioning = 0.20;           // spare / user capacity: sets steady-state GC
  bool power_loss_protection = true;         // PLP: no volatile cache, flush is free
  sim::Duration flush_overhead = 1 * sim::kMillisecond;  // without PLP: mapping metadata per flush

  // Cloud block volume (throttled_volume.h, token_bucket.h). The volume's
  // size is `capacity`; an ssd kind counts operations of up to 256 KiB, an
  // hdd kind up to 1 MiB (volume_operations.h). 0 turns a limit off.
  std::int64_t volume_iops = 0;           // baseline (provisioned) operations per second
  std::int64_t volume_burst_iops = 0;     // ceiling while I/O credits last
  std::int64_t volume_burst_credits = 0;  // I/O credit bucket, in operations (gp2: 5.4 M)
  std::int64_t volume_iops_refill = 0;    // credits per second; 0 = volume_iops
  sim::Bytes volume_mb_s = 0;             // baseline throughput, bytes per second
  sim::Bytes volume_burst_mb_s = 0;       // ceiling while throughput credits last
  sim::Bytes volume_burst_bytes = 0;      // throughput credit bucket, in bytes
  sim::Bytes volume_mb_s_refill = 0;      // bytes per second into it; 0 = volume_mb_s
  double volume_burst_balance = 100;      // both buckets' fill at the start, percent
  sim::Duration volume_latency = 0;       // network round trip per I/O, host to storage and back

  bool volume() const { return volume_iops > 0 || volume_mb_s > 0 || volume_latency > 0; }
};

}  // namespace ckptsim::disk
