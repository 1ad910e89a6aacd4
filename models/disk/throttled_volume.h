// models/disk/throttled_volume.h
//
// A cloud block volume: the provider's storage (a device model standing for
// it, here fast beside the limits) reached over the network and behind the
// provider's limits, as AWS EBS, Azure managed disks and GCP persistent disk
// document them (docs/DEVICES.md gives each preset's figures and pages):
//   - every I/O is counted in the provider's operations (volume_operations.h:
//     "Amazon EBS I/O characteristics and monitoring");
//   - it goes to the storage when the volume's IOPS and throughput buckets
//     and, when the host has them, the instance's allow it (io_limits.h,
//     token_bucket.h): a request held there is what CloudWatch counts as
//     time over the limit (VolumeIOPSExceeded / VolumeThroughputExceeded);
//   - its completion reaches the host one network round trip
//     (volume_latency) after the storage completes it.
// Requests leave in the order they arrived (one FIFO: the providers do not
// document an order, and the host sees throttling as a longer service
// time). The host's queue depth is the storage device's (queue_depth).
//
// Counters per interval for system.csv: operations and MiB per second as
// the provider counts them, the emptier bucket's fill in percent (gp2's
// BurstBalance; 100 without a credit bucket) and the milliseconds in which a
// request waited for a bucket.
//
// A provider's volume throttle is not the kernel's blk-throttle (models/os/
// blk_throttle.h, cgroup io.max, systemd IO*Max=, docker --device-write-iops):
// the provider counts at the device, after the guest merged bios into
// requests, in units of up to 256 KiB (a 1 MiB request is 4 operations), and
// holds the excess inside the device, where it occupies the guest's request
// tags and in the end blocks submitters; blk-throttle counts bios before any
// merge, one per bio whatever its size, an empty flush as one, holds the excess
// above the request layer in an unbounded FIFO and never blocks a submitter.
// How a provider charges cache flushes is each preset's assumption. Scenarios
// of a cloud disk use these presets (cloud-gp3.json); a local cap (a
// container, a systemd unit, the recordings of tests/data/storm) uses
// os.blkio_throttle, over the device the cap sits on.
//
// Left out: per-volume latency variation (the round trip is one figure), the
// first-touch penalty of volumes restored from snapshots, Azure's on-demand
// bursting and GCP's per-VM network share, multi-attach.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/disk/completion_queue.h"
#include "models/disk/device.h"
#include "models/disk/device_config.h"
#include "models/disk/io_limits.h"
#include "models/disk/volume_config.h"
#include "models/disk/volume_operations.h"
#include "sim/sampler.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::disk {

struct VolumeReport {
  std::int64_t operations = 0;  // as the provider counts them
  std::int64_t bytes = 0;
  sim::Duration throttled = 0;     // time in which a request waited for a bucket
  double burst_balance_pct = 100;  // the volume's emptier bucket, now
};

class ThrottledVolume final : public Device, private CommandOwner {
 public:
  // `kind`: the storage's, which sets how the provider counts operations;
  // `instance`: the host's own limits shared by its volumes, or null.
  ThrottledVolume(sim::Simulator& sim, const VolumeConfig& config, Kind kind, std::unique_ptr<Device> storage,
                  IoLimits* instance);
  ~ThrottledVolume() override;

  const DeviceInfo& info() const override { return info_; }
  bool can_accept(Op) const override { return outstanding_ < info_.queue_depth; }
  void submit(Command& command) override;
  int outstanding() const override { return outstanding_; }
  void volatile_ranges(std::vector<SectorRange>& out) const override { storage_->volatile_ranges(out); }

  VolumeReport report() const;
  // vol_iops, vol_mb_s, vol_burst_balance_pct, vol_throttled_ms after `prefix`.
  void add_system_columns(sim::Table& system, const std::string& prefix);

 private:
  struct Child : Command {
    Command* parent = nullptr;
  };

  void pump();
  void command_completed(Command& child) override;
  void finished(Command& command);
  void throttling(bool held);

  sim::Simulator& sim_;
  std::unique_ptr<Device> storage_;
  IoLimits limits_;
  IoLimits* instance_;
  sim::Duration latency_;
  VolumeOperations operations_;
  DeviceInfo info_;
  CompletionQueue completions_;
  sim::Timer retry_;  // armed while the head request waits for a bucket

  CommandList waiting_;  // in arrival order; device_tag holds its operation count
  std::vector<Child> children_;
  std::vector<Child*> free_children_;
  int outstanding_ = 0;

  std::int64_t operations_done_ = 0;
  std::int64_t bytes_done_ = 0;
  sim::Duration throttled_ = 0;  // closed spells
  sim::Time held_since_ = -1;    // the open spell's start, -1 when none

  // The previous interval's totals, for system.csv's rates.
  std::int64_t sampled_operations_ = 0, sampled_bytes_ = 0;
  sim::Duration sampled_throttled_ = 0;
};

}  // namespace ckptsim::disk
