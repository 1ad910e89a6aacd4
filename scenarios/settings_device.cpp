// scenarios/settings_device.cpp
//
// A storage device, from its preset file (scenarios/presets/device/NAME.json):
// one HDD or SSD (kind), mirrors, an optional battery-backed controller cache,
// and the parameters of the models in models/disk (docs/reference/os-disk-model.md 4-6).
// Each part of the device (DeviceConfig's members) declares its own rows, which
// describe_device binds flat under their prefix; applicable.cpp and resolve.cpp
// read the same rows to show only the parts a device has.
// Rates are bytes per second: "150MB" is 150 MiB/s. A cloud volume's limits
// (volume_*, and the instance's instance_*) are in the provider's units:
// operations per second, MiB/s, a credit bucket in operations or bytes, its
// starting fill in percent.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

using sim::kGiB;
using sim::kKiB;
using sim::kMiB;
using sim::kMicrosecond;
using sim::kMillisecond;
using sim::kSecond;

void describe_controller(Schema<disk::ControllerConfig>& s) {
  using disk::ControllerConfig;
  s.bytes("cache", &ControllerConfig::cache, kMiB, 0, 64 * kGiB)
      .duration("overhead", &ControllerConfig::overhead, kMicrosecond, 0, kSecond)
      .integer("queue_depth", &ControllerConfig::queue_depth, 1, 65536)
      .duration("flush_interval", &ControllerConfig::flush_interval, kSecond, kMillisecond, 3600 * kSecond);
}

void describe_hdd(Schema<disk::HddConfig>& s) {
  using disk::HddConfig;
  s.duration("command_overhead", &HddConfig::command_overhead, kMicrosecond, 0, 100 * kMillisecond)
      .duration("command_setup", &HddConfig::command_setup, kMillisecond, 0, kMillisecond / 2)
      .integer("rpm", &HddConfig::rpm, 1000, 30000)
      .integer("surfaces", &HddConfig::surfaces, 1, 64)
      .integer("cylinders", &HddConfig::cylinders, 2, 100000000)
      .duration("seek_single", &HddConfig::seek_single, kMillisecond, 1, kSecond)
      .duration("seek_average", &HddConfig::seek_average, kMillisecond, 1, kSecond)
      .duration("seek_full", &HddConfig::seek_full, kMillisecond, 1, kSecond)
      .duration("write_settle", &HddConfig::write_settle, kMillisecond, 0, kSecond)
      .duration("head_switch", &HddConfig::head_switch, kMillisecond, 0, kSecond)
      .bytes("media_rate_outer", &HddConfig::media_rate_outer, kMiB, kMiB, 64 * kGiB)
      .bytes("media_rate_inner", &HddConfig::media_rate_inner, kMiB, kMiB, 64 * kGiB)
      .duration("aging", &HddConfig::aging, kMillisecond, 1, 3600 * kSecond)
      .boolean("write_cache", &HddConfig::write_cache)
      .bytes("write_cache_size", &HddConfig::write_cache_size, kMiB, 64 * kKiB, 64 * kGiB)
      .integer("write_cache_extents", &HddConfig::write_cache_extents, 1, 65536)
      .integer("destage_window", &HddConfig::destage_window, 0, 65536)
      .choice("destage_order", &HddConfig::destage_order, disk::kDestageOrderNames)
      .bytes("read_segment", &HddConfig::read_segment, kKiB, 0, kGiB);
}

void describe_ssd(Schema<disk::SsdConfig>& s) {
  using disk::SsdConfig;
  s.integer("channels", &SsdConfig::channels, 1, 256)
      .integer("dies_per_channel", &SsdConfig::dies_per_channel, 1, 256)
      .integer("planes", &SsdConfig::planes, 1, 16)
      .bytes("flash_page", &SsdConfig::flash_page, kKiB, 512, kMiB)
      .integer("pages_per_block", &SsdConfig::pages_per_block, 1, 65536)
      .duration("read_time", &SsdConfig::read_time, kMicrosecond, 1, kSecond)
      .duration("program_time", &SsdConfig::program_time, kMicrosecond, 1, kSecond)
      .duration("erase_time", &SsdConfig::erase_time, kMicrosecond, 1, kSecond)
      .bytes("channel_rate", &SsdConfig::channel_rate, kMiB, kMiB, 64 * kGiB)
      .duration("ftl_overhead", &SsdConfig::ftl_overhead, kMicrosecond, 0, kSecond)
      .duration("host_overhead", &SsdConfig::host_overhead, kMicrosecond, 0, kSecond)
      .duration("write_overhead", &SsdConfig::write_overhead, kMicrosecond, 0, kSecond)
      .integer("host_iops_cap", &SsdConfig::host_iops_cap, 1, 100000000)
      .bytes("write_buffer", &SsdConfig::write_buffer, kMiB, kMiB, 64 * kGiB)
      .real("over_provisioning", &SsdConfig::over_provisioning, 0.02, 4.0)
      .boolean("power_loss_protection", &SsdConfig::power_loss_protection)
      .duration("flush_overhead", &SsdConfig::flush_overhead, kMicrosecond, 0, kSecond);
}

// One block for a volume's limits and the instance's (models/disk/io_limits.h).
void describe_io_limits(Schema<disk::IoLimitsConfig>& s) {
  using disk::IoLimitsConfig;
  s.integer("iops", &IoLimitsConfig::iops, 0, 10000000)
      .integer("burst_iops", &IoLimitsConfig::burst_iops, 0, 10000000)
      .integer("burst_credits", &IoLimitsConfig::burst_credits, 0, std::int64_t{1} << 40)
      .integer("iops_refill", &IoLimitsConfig::iops_refill, 0, 10000000)
      .bytes("mb_s", &IoLimitsConfig::mb_s, kMiB, 0, 64 * kGiB)
      .bytes("burst_mb_s", &IoLimitsConfig::burst_mb_s, kMiB, 0, 64 * kGiB)
      .bytes("burst_bytes", &IoLimitsConfig::burst_bytes, kMiB, 0, std::int64_t{1} << 50)
      .bytes("mb_s_refill", &IoLimitsConfig::mb_s_refill, kMiB, 0, 64 * kGiB)
      .real("burst_balance", &IoLimitsConfig::burst_balance, 0.0, 100.0);
}

// Cloud block volume (models/disk/throttled_volume.h; docs/DEVICES.md).
void describe_volume(Schema<disk::VolumeConfig>& s) {
  s.within(&disk::VolumeConfig::limits, describe_io_limits)
      .duration("latency", &disk::VolumeConfig::latency, kMillisecond, 0, kSecond);
}

void describe_device(Schema<disk::DeviceConfig>& s) {
  using disk::DeviceConfig;
  s.choice("kind", &DeviceConfig::kind, disk::kKindNames)
      .choice("interface", &DeviceConfig::interface, disk::kInterfaceNames)
      .bytes("capacity", &DeviceConfig::capacity, kMiB, 1)
      // Arrangement.
      .integer("mirrors", &DeviceConfig::mirrors, 1, 8)
      .within(&DeviceConfig::controller, describe_controller, kControllerPrefix)
      // Host interface.
      .integer("queue_depth", &DeviceConfig::queue_depth, 1, 65536)
      .bytes("link_rate", &DeviceConfig::link_rate, kMiB, kMiB, 64 * kGiB)
      .within(&DeviceConfig::hdd, describe_hdd)
      .within(&DeviceConfig::ssd, describe_ssd)
      .within(&DeviceConfig::volume, describe_volume, kVolumePrefix);
}

}  // namespace ckptsim::scenarios
