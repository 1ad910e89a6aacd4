// models/disk/hdd_geometry.h
//
// Where a byte lies on a zoned-recording disk, and how fast the media under
// the head passes (docs/reference/os-disk-model.md 4.1).
//
// Tracks are numbered outer to inner in LBA order (serpentine details
// collapsed). Recording density is constant along the radius, so bytes per
// track fall linearly from the outer edge, as does the media rate: a track
// at stroke fraction x holds BPT(x) = BPT0 (1 - (1 - rho) x) bytes, with
// BPT0 = media_rate_outer x one revolution and rho = inner / outer rate. The
// number of tracks follows from the capacity; the arm position used by the
// seek curve is the stroke fraction scaled to the configured (synthetic)
// cylinder count, so only distances matter.
//
// Track skew: each track starts one head-switch time of rotation after the
// previous one, so crossing to the next track during a transfer costs
// exactly the head switch, as on a real drive formatted for sequential
// throughput.
//
// Left out: spare sectors and defect remapping, serpentine layouts,
// distinct cylinder-switch skew, discrete zones (the rate varies smoothly).
#pragma once

#include <cstdint>

#include "models/disk/device_config.h"
#include "sim/time.h"

namespace ckptsim::disk {

class HddGeometry {
 public:
  explicit HddGeometry(const DeviceConfig& config);

  struct Place {
    std::int64_t track = 0;
    std::int64_t cylinder = 0;  // in the seek curve's cylinders
    double angle = 0;           // fraction of a revolution where the byte passes under the head
  };
  Place locate(std::int64_t byte) const;

  // Media time to transfer [byte, byte + length) once the head is on its
  // first sector: bytes at the track's rate plus a head switch per crossing.
  sim::Duration transfer_time(std::int64_t byte, std::int64_t length) const;
  // Bytes per second read while streaming along consecutive tracks.
  double sustained_rate(std::int64_t byte) const;
  double media_rate(std::int64_t track) const;          // bytes per second
  double revolution() const { return revolution_ns_; }  // ns
  double tracks() const { return tracks_; }

 private:
  double track_of(std::int64_t byte) const;  // fractional track index

  double revolution_ns_;
  double head_switch_ns_;
  double rho_;
  double bpt0_;    // bytes per track at the outer edge
  double tracks_;  // total, from the capacity
  std::int64_t cylinders_;
};

}  // namespace ckptsim::disk
