#include "models/disk/read_cost.h"

#include <algorithm>

namespace ckptsim::disk {

double random_read_seconds(const DeviceConfig& d, sim::Bytes bytes) {
  const auto size = static_cast<double>(bytes);
  double s = 0;
  if (d.kind == Kind::Hdd) {
    const double half_turn = 30.0 / static_cast<double>(d.hdd.rpm);
    const double media = static_cast<double>(d.hdd.media_rate_outer + d.hdd.media_rate_inner) / 2;
    s = sim::to_seconds(d.hdd.command_overhead + d.hdd.seek_average) + half_turn + size / media;
  } else {
    s = sim::to_seconds(d.ssd.host_overhead + d.ssd.ftl_overhead + d.ssd.read_time) +
        size / static_cast<double>(d.ssd.channel_rate);
  }
  if (d.controller.cache > 0) s += sim::to_seconds(d.controller.overhead);
  return s;
}

double sequential_read_bytes_per_second(const DeviceConfig& d) {
  const double link = static_cast<double>(d.link_rate);
  if (d.kind == Kind::Hdd)
    return std::min(link, static_cast<double>(d.hdd.media_rate_outer + d.hdd.media_rate_inner) / 2);
  return std::min(link, static_cast<double>(d.ssd.channels * d.ssd.channel_rate));
}

}  // namespace ckptsim::disk
