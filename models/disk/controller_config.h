// models/disk/controller_config.h
//
// The settings of a RAID controller's battery-backed write-back cache in
// front of the device's members: what models/disk/controller_cache.h
// simulates. A cache of 0 means there is no controller.
#pragma once

#include <cstdint>

#include "sim/time.h"

namespace ckptsim::disk {

struct ControllerConfig {
  sim::Bytes cache = 0;                             // battery-backed write-back cache; 0 = no controller
  sim::Duration overhead = 50 * sim::kMicrosecond;  // per command through the controller
  std::int64_t queue_depth = 256;                   // commands the controller accepts from the host
  sim::Duration flush_interval = 4 * sim::kSecond;  // periodic destage of older dirty data (LSI default)

  bool present() const { return cache > 0; }
};

}  // namespace ckptsim::disk
