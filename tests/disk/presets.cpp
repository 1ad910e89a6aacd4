// tests/disk/presets.cpp
#include "tests/disk/presets.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace ckptsim::disk::testing {

namespace {

using nlohmann::json;

// "150MB" -> bytes (1024-based, as PostgreSQL's units); a bare number is in `base`.
std::int64_t quantity(const json& v, std::int64_t base, const std::map<std::string, double>& units) {
  if (v.is_number()) return std::llround(v.get<double>() * static_cast<double>(base));
  const std::string text = v.get<std::string>();
  std::size_t used = 0;
  const double number = std::stod(text, &used);
  const auto unit = units.find(text.substr(used));
  if (unit == units.end()) throw std::runtime_error("test preset reader: unit of " + text);
  return std::llround(number * unit->second);
}

std::int64_t bytes(const json& v, std::int64_t base) {
  static const std::map<std::string, double> units{{"B", 1},
                                                   {"kB", 1024.0},
                                                   {"MB", 1024.0 * 1024},
                                                   {"GB", 1024.0 * 1024 * 1024},
                                                   {"TB", 1024.0 * 1024 * 1024 * 1024}};
  return quantity(v, base, units);
}

std::int64_t duration(const json& v, std::int64_t base) {
  static const std::map<std::string, double> units{{"us", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"min", 60e9}};
  return quantity(v, base, units);
}

}  // namespace

DeviceConfig preset(const std::string& name) {
  std::ifstream in(std::string(CKPTSIM_SOURCE_DIR) + "/scenarios/presets/device/" + name + ".json");
  if (!in) throw std::runtime_error("no device preset " + name);
  const json file = json::parse(in);
  DeviceConfig c;
  c.name = name;
  c.description = file.at("description").get<std::string>();
  using sim::kKiB, sim::kMiB, sim::kMicrosecond, sim::kMillisecond;
  const std::map<std::string, std::function<void(const json&)>> set{
      {"kind", [&](const json& v) { c.kind = sim::enum_from_name(disk::kKindNames, v.get<std::string>()).value(); }},
      {"interface",
       [&](const json& v) { c.interface = sim::enum_from_name(disk::kInterfaceNames, v.get<std::string>()).value(); }},
      {"capacity", [&](const json& v) { c.capacity = bytes(v, kMiB); }},
      {"mirrors", [&](const json& v) { c.mirrors = v.get<std::int64_t>(); }},
      {"controller_cache", [&](const json& v) { c.controller.cache = bytes(v, kMiB); }},
      {"controller_overhead", [&](const json& v) { c.controller.overhead = duration(v, kMicrosecond); }},
      {"controller_queue_depth", [&](const json& v) { c.controller.queue_depth = v.get<std::int64_t>(); }},
      {"queue_depth", [&](const json& v) { c.queue_depth = v.get<std::int64_t>(); }},
      {"link_rate", [&](const json& v) { c.link_rate = bytes(v, kMiB); }},
      {"command_overhead", [&](const json& v) { c.hdd.command_overhead = duration(v, kMicrosecond); }},
      {"command_setup", [&](const json& v) { c.hdd.command_setup = duration(v, kMillisecond); }},
      {"rpm", [&](const json& v) { c.hdd.rpm = v.get<std::int64_t>(); }},
      {"surfaces", [&](const json& v) { c.hdd.surfaces = v.get<std::int64_t>(); }},
      {"cylinders", [&](const json& v) { c.hdd.cylinders = v.get<std::int64_t>(); }},
      {"seek_single", [&](const json& v) { c.hdd.seek_single = duration(v, kMillisecond); }},
      {"seek_average", [&](const json& v) { c.hdd.seek_average = duration(v, kMillisecond); }},
      {"seek_full", [&](const json& v) { c.hdd.seek_full = duration(v, kMillisecond); }},
      {"write_settle", [&](const json& v) { c.hdd.write_settle = duration(v, kMillisecond); }},
      {"head_switch", [&](const json& v) { c.hdd.head_switch = duration(v, kMillisecond); }},
      {"media_rate_outer", [&](const json& v) { c.hdd.media_rate_outer = bytes(v, kMiB); }},
      {"media_rate_inner", [&](const json& v) { c.hdd.media_rate_inner = bytes(v, kMiB); }},
      {"aging", [&](const json& v) { c.hdd.aging = duration(v, kMillisecond); }},
      {"write_cache", [&](const json& v) { c.hdd.write_cache = v.get<bool>(); }},
      {"write_cache_size", [&](const json& v) { c.hdd.write_cache_size = bytes(v, kMiB); }},
      {"write_cache_extents", [&](const json& v) { c.hdd.write_cache_extents = v.get<std::int64_t>(); }},
      {"destage_window", [&](const json& v) { c.hdd.destage_window = v.get<std::int64_t>(); }},
      {"destage_order",
       [&](const json& v) {
         c.hdd.destage_order = sim::enum_from_name(disk::kDestageOrderNames, v.get<std::string>()).value();
       }},
      {"read_segment", [&](const json& v) { c.hdd.read_segment = bytes(v, kKiB); }},
      {"channels", [&](const json& v) { c.ssd.channels = v.get<std::int64_t>(); }},
      {"dies_per_channel", [&](const json& v) { c.ssd.dies_per_channel = v.get<std::int64_t>(); }},
      {"planes", [&](const json& v) { c.ssd.planes = v.get<std::int64_t>(); }},
      {"flash_page", [&](const json& v) { c.ssd.flash_page = bytes(v, kKiB); }},
      {"pages_per_block", [&](const json& v) { c.ssd.pages_per_block = v.get<std::int64_t>(); }},
      {"read_time", [&](const json& v) { c.ssd.read_time = duration(v, kMicrosecond); }},
      {"program_time", [&](const json& v) { c.ssd.program_time = duration(v, kMicrosecond); }},
      {"erase_time", [&](const json& v) { c.ssd.erase_time = duration(v, kMicrosecond); }},
      {"channel_rate", [&](const json& v) { c.ssd.channel_rate = bytes(v, kMiB); }},
      {"ftl_overhead", [&](const json& v) { c.ssd.ftl_overhead = duration(v, kMicrosecond); }},
      {"host_overhead", [&](const json& v) { c.ssd.host_overhead = duration(v, kMicrosecond); }},
      {"host_iops_cap", [&](const json& v) { c.ssd.host_iops_cap = v.get<std::int64_t>(); }},
      {"write_buffer", [&](const json& v) { c.ssd.write_buffer = bytes(v, kMiB); }},
      {"over_provisioning", [&](const json& v) { c.ssd.over_provisioning = v.get<double>(); }},
      {"power_loss_protection", [&](const json& v) { c.ssd.power_loss_protection = v.get<bool>(); }},
      {"flush_overhead", [&](const json& v) { c.ssd.flush_overhead = duration(v, kMicrosecond); }},
      {"volume_iops", [&](const json& v) { c.volume.limits.iops = v.get<std::int64_t>(); }},
      {"volume_burst_iops", [&](const json& v) { c.volume.limits.burst_iops = v.get<std::int64_t>(); }},
      {"volume_burst_credits", [&](const json& v) { c.volume.limits.burst_credits = v.get<std::int64_t>(); }},
      {"volume_iops_refill", [&](const json& v) { c.volume.limits.iops_refill = v.get<std::int64_t>(); }},
      {"volume_mb_s", [&](const json& v) { c.volume.limits.mb_s = bytes(v, kMiB); }},
      {"volume_burst_mb_s", [&](const json& v) { c.volume.limits.burst_mb_s = bytes(v, kMiB); }},
      {"volume_burst_bytes", [&](const json& v) { c.volume.limits.burst_bytes = bytes(v, kMiB); }},
      {"volume_mb_s_refill", [&](const json& v) { c.volume.limits.mb_s_refill = bytes(v, kMiB); }},
      {"volume_burst_balance", [&](const json& v) { c.volume.limits.burst_balance = v.get<double>(); }},
      {"volume_latency", [&](const json& v) { c.volume.latency = duration(v, kMillisecond); }},
  };
  for (const auto& [key, value] : file.at("device").items()) {
    const auto it = set.find(key);
    if (it == set.end()) throw std::runtime_error("test preset reader: unknown key " + key + " in " + name);
    it->second(value);
  }
  return c;
}

}  // namespace ckptsim::disk::testing
