// models/disk/hdd_geometry.cpp
#include "models/disk/hdd_geometry.h"

#include <algorithm>
#include <cmath>

namespace ckptsim::disk {

namespace {
double frac(double x) { return x - std::floor(x); }
}  // namespace

HddGeometry::HddGeometry(const DeviceConfig& config)
    : revolution_ns_(60.0 * sim::kSecond / static_cast<double>(config.hdd.rpm)),
      head_switch_ns_(static_cast<double>(config.hdd.head_switch)),
      rho_(static_cast<double>(config.hdd.media_rate_inner) / static_cast<double>(config.hdd.media_rate_outer)),
      bpt0_(static_cast<double>(config.hdd.media_rate_outer) * revolution_ns_ / sim::kSecond),
      tracks_(2.0 * static_cast<double>(config.capacity) / (bpt0_ * (1 + rho_))),
      cylinders_(config.hdd.cylinders) {}

// Inverse of Cum(k) = BPT0 (k - (1 - rho) k^2 / (2 T)), the bytes before track k.
double HddGeometry::track_of(std::int64_t byte) const {
  const double b = static_cast<double>(byte);
  const double shrink = 1 - rho_;
  if (shrink < 1e-9) return b / bpt0_;
  const double inside = std::max(0.0, 1 - 2 * shrink * b / (bpt0_ * tracks_));
  return tracks_ * (1 - std::sqrt(inside)) / shrink;
}

HddGeometry::Place HddGeometry::locate(std::int64_t byte) const {
  const double k = track_of(byte);
  Place place;
  place.track = static_cast<std::int64_t>(k);
  const double x = static_cast<double>(place.track) / tracks_;
  place.cylinder =
      std::min<std::int64_t>(cylinders_ - 1, static_cast<std::int64_t>(x * static_cast<double>(cylinders_)));
  // Skew of the track start plus how far into the track the byte lies. The
  // fractional track index is the byte's share of its track only to first
  // order, close enough within one track.
  const double skew = frac(static_cast<double>(place.track) * head_switch_ns_ / revolution_ns_);
  place.angle = frac(skew + (k - static_cast<double>(place.track)));
  return place;
}

double HddGeometry::media_rate(std::int64_t track) const {
  const double x = std::min(1.0, static_cast<double>(track) / tracks_);
  return bpt0_ * (1 - (1 - rho_) * x) * sim::kSecond / revolution_ns_;
}

sim::Duration HddGeometry::transfer_time(std::int64_t byte, std::int64_t length) const {
  const std::int64_t first = static_cast<std::int64_t>(track_of(byte));
  const std::int64_t last = static_cast<std::int64_t>(track_of(byte + length - 1));
  const double ns = static_cast<double>(length) / media_rate(first) * sim::kSecond +
                    static_cast<double>(last - first) * head_switch_ns_;
  return std::llround(ns);
}

double HddGeometry::sustained_rate(std::int64_t byte) const {
  const std::int64_t track = static_cast<std::int64_t>(track_of(byte));
  return media_rate(track) * revolution_ns_ / (revolution_ns_ + head_switch_ns_);
}

}  // namespace ckptsim::disk
