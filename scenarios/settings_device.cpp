// scenarios/settings_device.cpp
//
// A storage device, from its preset file (scenarios/presets/device/NAME.json):
// one HDD or SSD (kind), mirrors, an optional battery-backed controller cache,
// and the parameters of the models in models/disk (docs/reference/os-disk-model.md 4-6).
// Rates are bytes per second: "150MB" is 150 MiB/s. A cloud volume's limits
// (volume_*) are in the provider's units: operations per second, MiB/s, a
// credit bucket in operations or bytes, its starting fill in percent.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_device(Schema<disk::DeviceConfig>& s) {
  using disk::DeviceConfig;
  using sim::kGiB;
  using sim::kKiB;
  using sim::kMiB;
  using sim::kMicrosecond;
  using sim::kMillisecond;
  using sim::kSecond;
  s.choice("kind", &DeviceConfig::kind, disk::kKindNames)
      .choice("interface", &DeviceConfig::interface, disk::kInterfaceNames)
      .bytes("capacity", &DeviceConfig::capacity, kMiB, 1)
      // Arrangement.
      .integer("mirrors", &DeviceConfig::mirrors, 1, 8)
      .bytes("controller_cache", &DeviceConfig::controller_cache, kMiB, 0, 64 * kGiB)
      .duration("controller_overhead", &DeviceConfig::controller_overhead, kMicrosecond, 0, kSecond)
      .integer("controller_queue_depth", &DeviceConfig::controller_queue_depth, 1, 65536)
      .duration("controller_flush_interval", &DeviceConfig::controller_flush_interval, kSecond, kMillisecond,
                3600 * kSecond)
      // Host interface.
      .integer("queue_depth", &DeviceConfig::queue_depth, 1, 65536)
      .bytes("link_rate", &DeviceConfig::link_rate, kMiB, kMiB, 64 * kGiB)
      // HDD.
      .duration("command_overhead", &DeviceConfig::command_overhead, kMicrosecond, 0, 100 * kMillisecond)
      .duration("command_setup", &DeviceConfig::command_setup, kMillisecond, 0, kMillisecond / 2)
      .integer("rpm", &DeviceConfig::rpm, 1000, 30000)
      .integer("surfaces", &DeviceConfig::surfaces, 1, 64)
      .integer("cylinders", &DeviceConfig::cylinders, 2, 100000000)
      .duration("seek_single", &DeviceConfig::seek_single, kMillisecond, 1, kSecond)
      .duration("seek_average", &DeviceConfig::seek_average, kMillisecond, 1, kSecond)
      .duration("seek_full", &DeviceConfig::seek_full, kMillisecond, 1, kSecond)
      .duration("write_settle", &DeviceConfig::write_settle, kMillisecond, 0, kSecond)
      .duration("head_switch", &DeviceConfig::head_switch, kMillisecond, 0, kSecond)
      .bytes("media_rate_outer", &DeviceConfig::media_rate_outer, kMiB, kMiB, 64 * kGiB)
      .bytes("media_rate_inner", &DeviceConfig::media_rate_inner, kMiB, kMiB, 64 * kGiB)
      .duration("aging", &DeviceConfig::aging, kMillisecond, 1, 3600 * kSecond)
      .boolean("write_cache", &DeviceConfig::write_cache)
      .bytes("write_cache_size", &DeviceConfig::write_cache_size, kMiB, 64 * kKiB, 64 * kGiB)
      .integer("write_cache_extents", &DeviceConfig::write_cache_extents, 1, 65536)
      .integer("destage_window", &DeviceConfig::destage_window, 0, 65536)
      .choice("destage_order", &DeviceConfig::destage_order, disk::kDestageOrderNames)
      .bytes("read_segment", &DeviceConfig::read_segment, kKiB, 0, kGiB)
      // SSD.
      .integer("channels", &DeviceConfig::channels, 1, 256)
      .integer("dies_per_channel", &DeviceConfig::dies_per_channel, 1, 256)
      .integer("planes", &DeviceConfig::planes, 1, 16)
      .bytes("flash_page", &DeviceConfig::flash_page, kKiB, 512, kMiB)
      .integer("pages_per_block", &DeviceConfig::pages_per_block, 1, 65536)
      .duration("read_time", &DeviceConfig::read_time, kMicrosecond, 1, kSecond)
      .duration("program_time", &DeviceConfig::program_time, kMicrosecond, 1, kSecond)
      .duration("erase_time", &DeviceConfig::erase_time, kMicrosecond, 1, kSecond)
      .bytes("channel_rate", &DeviceConfig::channel_rate, kMiB, kMiB, 64 * kGiB)
      .duration("ftl_overhead", &DeviceConfig::ftl_overhead, kMicrosecond, 0, kSecond)
      .duration("host_overhead", &DeviceConfig::host_overhead, kMicrosecond, 0, kSecond)
      .duration("write_overhead", &DeviceConfig::write_overhead, kMicrosecond, 0, kSecond)
      .integer("host_iops_cap", &DeviceConfig::host_iops_cap, 1, 100000000)
      .bytes("write_buffer", &DeviceConfig::write_buffer, kMiB, kMiB, 64 * kGiB)
      .real("over_provisioning", &DeviceConfig::over_provisioning, 0.02, 4.0)
      .boolean("power_loss_protection", &DeviceConfig::power_loss_protection)
      .duration("flush_overhead", &DeviceConfig::flush_overhead, kMicrosecond, 0, kSecond)
      // Cloud block volume (models/disk/throttled_volume.h; docs/DEVICES.md).
      .integer("volume_iops", &DeviceConfig::volume_iops, 0, 10000000)
      .integer("volume_burst_iops", &DeviceConfig::volume_burst_iops, 0, 10000000)
      .integer("volume_burst_credits", &DeviceConfig::volume_burst_credits, 0, std::int64_t{1} << 40)
      .integer("volume_iops_refill", &DeviceConfig::volume_iops_refill, 0, 10000000)
      .bytes("volume_mb_s", &DeviceConfig::volume_mb_s, kMiB, 0, 64 * kGiB)
      .bytes("volume_burst_mb_s", &DeviceConfig::volume_burst_mb_s, kMiB, 0, 64 * kGiB)
      .bytes("volume_burst_bytes", &DeviceConfig::volume_burst_bytes, kMiB, 0, std::int64_t{1} << 50)
      .bytes("volume_mb_s_refill", &DeviceConfig::volume_mb_s_refill, kMiB, 0, 64 * kGiB)
      .real("volume_burst_balance", &DeviceConfig::volume_burst_balance, 0.0, 100.0)
      .duration("volume_latency", &DeviceConfig::volume_latency, kMillisecond, 0, kSecond);
}

}  // namespace ckptsim::scenarios
