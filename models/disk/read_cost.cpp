#include "models/disk/read_cost.h"

#include <algorithm>

namespace ckptsim::disk {

double random_read_seconds(const DeviceConfig& d, sim::Bytes bytes) {
  const auto size = static_cast<double>(bytes);
  double s = 0;
  if (d.kind == Kind::Hdd) {
    const double half_turn = 30.0 / static_cast<double>(d.rpm);
    const double media = static_cast<double>(d.media_rate_outer + d.media_rate_inner) / 2;
    s = sim::to_seconds(d.command_overhead + d.seek_average) + half_turn + size / media;
  } else {
    s = sim::to_seconds(d.host_overhead + d.ftl_overhead + d.read_time) + size / static_cast<double>(d.channel_rate);
  }
  if (d.controller_cache > 0) s += sim::to_seconds(d.controller_overhead);
  return s;
}

double sequential_read_bytes_per_second(const DeviceConfig& d) {
  const double link = static_cast<double>(d.link_rate);
  if (d.kind == Kind::Hdd) return std::min(link, static_cast<double>(d.media_rate_outer + d.media_rate_inner) / 2);
  return std::min(link, static_cast<double>(d.channels * d.channel_rate));
}

}  // namespace ckptsim::disk
