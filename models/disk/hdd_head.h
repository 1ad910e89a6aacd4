// models/disk/hdd_head.h
//
// Where a drive's head is and what it costs to put it over a sector: the
// arm (seek over the cylinder distance, Lee's curve in seek_curve.h, or a
// head switch), write settle, and the spindle's rotational wait
// (docs/reference/os-disk-model.md 4.1-4.3; DiskSim's mech_g1 seek and latency, Ruemmler
// and Wilkes 1994).
//
// The spindle's angle is a function of time and a random initial phase; the
// arm starts over a random sector. Both are drawn from the drive's own
// "<name>/spindle" stream, phase first. After each media operation the
// head is over the last byte it transferred.
//
// Left out: seek-time variance, thermal recalibration, distinct
// cylinder-switch times, settle on reads.
#pragma once

#include <cstdint>
#include <string_view>

#include "models/disk/device_config.h"
#include "models/disk/hdd_geometry.h"
#include "models/disk/seek_curve.h"
#include "sim/time.h"

namespace ckptsim::disk {

class HddHead {
 public:
  HddHead(const DeviceConfig& config, const HddGeometry& geometry, std::uint64_t seed, std::string_view name);

  const SeekCurve& seek_curve() const { return seek_; }
  // Rotational wait from time t until the byte's sector is under the head.
  sim::Duration rotational_wait(std::int64_t byte, sim::Time t) const;
  // Seek or head switch, settle for a write, then the rotational wait, starting at t.
  sim::Duration positioning_time(std::int64_t sector, bool write, sim::Time t) const;
  // A media operation over [sector, sector + bytes) ends with the head on its last byte.
  void transferred(std::int64_t sector, std::int64_t bytes);
  // Where the last media operation ended (C-LOOK's position).
  std::int64_t sector() const { return sector_; }

 private:
  const DeviceConfig& config_;
  const HddGeometry& geometry_;
  SeekCurve seek_;
  double phase_;  // spindle angle at time 0, in revolutions
  std::int64_t track_ = 0;
  std::int64_t cylinder_ = 0;
  std::int64_t sector_ = 0;
};

}  // namespace ckptsim::disk
