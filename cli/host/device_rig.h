// cli/host/device_rig.h
//
// One device under the kernel's block queue, on a simulator of its own and
// with no page cache: what `devbench` and `calibrate` run their fio-like jobs
// against (models/os/direct_io_bench.h, drain_bench.h). When the scenario
// limits the data device (os.blkio_throttle), the direct-I/O jobs go
// through that blk-throttle, as fio on a throttled cgroup's device does. A job gets a fresh
// rig, so that it inherits no other job's cache or queue state. The host's
// other composition is Machine's (machine.h).
#pragma once

#include <cstdint>
#include <memory>

#include "models/disk/device.h"
#include "models/disk/device_config.h"
#include "models/os/blk_throttle.h"
#include "models/os/block_queue.h"
#include "models/os/direct_io_bench.h"
#include "models/os/drain_bench.h"
#include "models/os/os_config.h"
#include "sim/simulator.h"

namespace ckptsim::cli {

class DeviceRig {
 public:
  DeviceRig(const disk::DeviceConfig& device, const os::OsConfig& os, std::uint64_t seed);
  DeviceRig(const DeviceRig&) = delete;
  DeviceRig& operator=(const DeviceRig&) = delete;

  os::DirectJobResult run(const os::DirectJob& job);
  os::DrainResult run(const os::DrainJob& job);
  // The block queue's scheduler, as devbench's title names it.
  const char* scheduler() const { return queue_.scheduler(); }

 private:
  sim::Simulator sim_;
  std::uint64_t seed_;
  std::unique_ptr<disk::Device> device_;
  os::BlockQueue queue_;
  std::unique_ptr<os::BlkThrottle> throttle_;  // null: no limit
};

}  // namespace ckptsim::cli
