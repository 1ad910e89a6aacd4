// models/disk/hdd_head.cpp
#include "models/disk/hdd_head.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "models/disk/device.h"
#include "sim/random.h"

namespace ckptsim::disk {

namespace {
// Waits shorter than this share of a revolution are rounding, not a missed
// sector: the head is already there.
constexpr double kOnTime = 1e-5;
double frac(double x) { return x - std::floor(x); }
}  // namespace

HddHead::HddHead(const DeviceConfig& config, const HddGeometry& geometry, std::uint64_t seed, std::string_view name)
    : config_(config),
      geometry_(geometry),
      seek_(config.hdd.seek_single, config.hdd.seek_average, config.hdd.seek_full, config.hdd.cylinders) {
  sim::Random random(seed, std::string(name) + "/spindle");
  phase_ = random.uniform01();
  const std::int64_t start_sector = random.uniform_int(0, config.capacity / kSectorBytes - 1);
  const auto start = geometry_.locate(start_sector * kSectorBytes);
  track_ = start.track;
  cylinder_ = start.cylinder;
  sector_ = start_sector;
}

sim::Duration HddHead::rotational_wait(std::int64_t byte, sim::Time t) const {
  const double angle = geometry_.locate(byte).angle;
  const double under_head = frac(static_cast<double>(t) / geometry_.revolution() + phase_);
  double wait = frac(angle - under_head);
  if (wait > 1 - kOnTime) wait = 0;
  return std::llround(wait * geometry_.revolution());
}

sim::Duration HddHead::positioning_time(std::int64_t sector, bool write, sim::Time t) const {
  const auto target = geometry_.locate(sector * kSectorBytes);
  sim::Duration move = 0;
  if (target.cylinder != cylinder_) {
    // The arm moves and the head is switched at the same time.
    move = std::max(seek_(std::abs(target.cylinder - cylinder_)), config_.hdd.head_switch);
  } else if (target.track != track_) {
    move = config_.hdd.head_switch;
  }
  // A write settles the head after the arm or the head has moved; on the same track it is already on track.
  if (write && move > 0) move += config_.hdd.write_settle;
  return move + rotational_wait(sector * kSectorBytes, t + move);
}

void HddHead::transferred(std::int64_t sector, std::int64_t bytes) {
  const auto last = geometry_.locate(sector * kSectorBytes + bytes - 1);
  track_ = last.track;
  cylinder_ = last.cylinder;
  sector_ = sector + bytes / kSectorBytes;
}

}  // namespace ckptsim::disk
