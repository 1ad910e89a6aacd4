#include "cli/host/device_rig.h"

#include "models/disk/make_device.h"

namespace ckptsim::cli {

DeviceRig::DeviceRig(const disk::DeviceConfig& device, const os::OsConfig& os, std::uint64_t seed)
    : seed_(seed),
      device_(disk::make_device(sim_, device, seed, "data")),
      queue_(sim_, os, *device_, os.scheduler, "data") {
  if (os.blkio_throttle.enabled()) throttle_ = std::make_unique<os::BlkThrottle>(sim_, os.blkio_throttle, queue_);
}

os::DirectJobResult DeviceRig::run(const os::DirectJob& job) {
  return os::run_direct_job(sim_, queue_, job, seed_, throttle_.get());
}

os::DrainResult DeviceRig::run(const os::DrainJob& job) {
  return os::run_drain_job(sim_, queue_, job, seed_, throttle_.get());
}

}  // namespace ckptsim::cli
