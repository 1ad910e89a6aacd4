// models/disk/make_device.cpp
#include "models/disk/make_device.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/disk/controller_cache.h"
#include "models/disk/hdd.h"
#include "models/disk/raid1.h"
#include "models/disk/ssd.h"
#include "models/disk/throttled_volume.h"

namespace ckptsim::disk {

namespace {

std::unique_ptr<Device> make_member(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed,
                                    const std::string& name) {
  switch (config.kind) {
    case Kind::Hdd: return std::make_unique<Hdd>(sim, config, seed, name);
    case Kind::Ssd: return std::make_unique<Ssd>(sim, config, seed, name);
  }
  throw std::invalid_argument("device " + name + ": unknown kind (expected hdd or ssd)");
}

}  // namespace

std::unique_ptr<Device> make_device(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed,
                                    std::string_view name, IoLimits* instance) {
  std::unique_ptr<Device> device;
  if (config.mirrors > 1) {
    std::vector<std::unique_ptr<Device>> members;
    for (std::int64_t m = 0; m < config.mirrors; ++m) {
      const std::string member = std::string(name) + "/sd" + static_cast<char>('a' + m % 26);
      members.push_back(make_member(sim, config, seed, member));
    }
    device = std::make_unique<Raid1>(sim, std::move(members));
  } else {
    device = make_member(sim, config, seed, std::string(name));
  }
  if (config.controller.present())
    device = std::make_unique<ControllerCache>(sim, config.controller, std::move(device));
  if (config.volume.present()) {
    device = std::make_unique<ThrottledVolume>(sim, config.volume, config.kind, std::move(device), instance);
  }
  return device;
}

}  // namespace ckptsim::disk
