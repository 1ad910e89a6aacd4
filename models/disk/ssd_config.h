// models/disk/ssd_config.h
//
// The settings of one SSD's flash and controller: what models/disk/ssd.h
// simulates. Figures and sources: docs/reference/os-disk-model.md 5.1-5.4;
// the defaults are the ssd-sata preset's (5.5). The host link, queue depth
// and capacity are the device's own (device_config.h), shared with an HDD.
#pragma once

#include <cstdint>

#include "sim/time.h"

namespace ckptsim::disk {

struct SsdConfig {
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
};

}  // namespace ckptsim::disk
