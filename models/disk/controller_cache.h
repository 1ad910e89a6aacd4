// models/disk/controller_cache.h
//
// A hardware RAID controller's battery-backed write-back cache (BBWC) in
// front of its disks (docs/reference/os-disk-model.md section 6, "raid1-hdd-7200-bbwc"), as
// on the LSI / PERC / Smart Array cards of 2012-era database servers.
//
// The cache is non-volatile (a battery keeps it), so the controller reports
// no volatile cache: a write completes as soon as it is in the cache, after
// the controller's per-command overhead, and a FLUSH completes at once. The
// cache destages dirty extents to the array behind it in elevator order
// (C-LOOK: ascending sector from where the last destage ended, wrapping to
// the lowest), leaving queue slots for reads. Reads inside a dirty extent are
// cache hits; other reads pass through, ahead of destages. When the dirty
// bytes reach the cache size, writes wait (holding their queue slot) until
// destaging frees room: under sustained random writes the array's destage
// rate sets the pace.
//
// When to destage (Gill & Modha, "WOW: Wise Ordering for Writes", FAST 2005,
// section IV-E, linear threshold scheduling; the high/low watermark flushing
// of storage arrays): below a low watermark of 80% of the cache, only data
// older than the last periodic flush is destaged, at a slow steady 4
// outstanding writes (LSI MegaRAID's "cache flush interval", 4 s by default:
// controller_flush_interval); from 80% to 90% the number of outstanding
// destages grows linearly, and at 90% and above the array gets as many as it
// takes (3/4 of its queue). Holding writes that long is what lets the cache
// absorb rewrites (a WAL page written again at every commit is destaged once
// per flush, not once per commit) and merge sequential writes into 512 kB
// destages.
//
// Overlapping and adjacent writes are merged into one extent up to 512 kB and
// a rewrite of cached data takes no room, so the cache also coalesces: the
// extents and their C-LOOK order are bbwc_extents.h. This class is the
// controller: its command queue, reads passing through, writes waiting for
// room, and when and how many destages go to the array.
//
// Left out: read caching and read-ahead in the controller, the battery's
// learn cycles (write-through while charging), the controller's own RAID
// logic (the array behind it is a Raid1 or a single device), stripe sizes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/disk/bbwc_extents.h"
#include "models/disk/completion_queue.h"
#include "models/disk/controller_config.h"
#include "models/disk/device.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::disk {

class ControllerCache final : public Device, private CommandOwner {
 public:
  ControllerCache(sim::Simulator& sim, const ControllerConfig& config, std::unique_ptr<Device> array);
  ~ControllerCache() override;

  const DeviceInfo& info() const override { return info_; }
  bool can_accept(Op op) const override;
  void submit(Command& command) override;
  int outstanding() const override { return outstanding_; }

  std::int64_t dirty_bytes() const { return extents_.dirty_bytes(); }
  // The battery keeps the cache's own data; what it destaged may sit in the array's volatile caches.
  void volatile_ranges(std::vector<SectorRange>& out) const override { array_->volatile_ranges(out); }
  std::int64_t dirty_extents() const { return extents_.count(); }
  int destages_in_flight() const { return destaging_; }
  Device& array() { return *array_; }

 private:
  // A command the controller sends to the array: a read on a host's behalf
  // or the destage of one extent.
  struct Child : Command {
    Command* parent = nullptr;
    BbwcExtents::Extent* extent = nullptr;
  };

  // Into the cache if there is room; new data waits for the next periodic flush.
  bool admit(const Command& write);
  void pump();                  // send waiting reads, then destages, while the array has room
  int wanted_destages() const;  // linear threshold scheduling
  void periodic_flush();
  void command_completed(Command& child) override;
  void finished(Command& c);

  sim::Simulator& sim_;
  ControllerConfig config_;
  std::unique_ptr<Device> array_;
  DeviceInfo info_;
  CompletionQueue completions_;

  BbwcExtents extents_;

  std::vector<Child> children_;
  std::vector<Child*> free_children_;
  int destaging_ = 0;
  int destage_depth_;       // at and above the high watermark
  sim::Timer flush_timer_;  // armed while fresh data waits for the next periodic flush

  CommandList reads_waiting_;   // reads the array cannot take yet
  CommandList writes_waiting_;  // writes waiting for cache room
  int outstanding_ = 0;
};

}  // namespace ckptsim::disk
