// models/disk/hdd_destage.h
//
// Which dirty extent of a drive's write cache the firmware destages next.
// Datasheets do not publish it; Worthington, Ganger and Patt 1994 compare
// the host-side versions of the same choices and DiskSim's scheduler offers
// them for the drive queue:
// - destage_window: only the oldest W dirty extents (by the write that
//   opened them) are candidates, as firmware that scans a bounded part of
//   its segment list; 0 = all of them.
// - destage_order: "positioning" (shortest positioning time first over the
//   window, the SPTF of host commands), "lba" (C-LOOK: the lowest LBA at or
//   above the head's, else the lowest), "fifo" (the oldest; any window then
//   gives the same order).
// A window of 1 destages in arrival order whatever the order. When to
// destage (and against which host command) is the drive's scheduling
// (hdd.h).
#pragma once

#include <cstdint>
#include <vector>

#include "models/disk/device_config.h"
#include "models/disk/hdd_head.h"
#include "models/disk/hdd_write_cache.h"
#include "sim/time.h"

namespace ckptsim::disk {

class HddDestage {
 public:
  HddDestage(const DeviceConfig& config, const HddWriteCache& cache, const HddHead& head);

  struct Pick {
    int extent = -1;  // none
    sim::Duration positioning = 0;
  };
  // The extent to destage with the mechanism ready at `ready`, and its positioning time.
  Pick next(sim::Time ready);

 private:
  // The arrival number (Extent::born) of the newest extent inside the window.
  std::uint64_t window_limit();

  const DeviceConfig& config_;
  const HddWriteCache& cache_;
  const HddHead& head_;
  std::vector<std::uint64_t> scratch_;  // the window: dirty extents' arrival numbers
};

}  // namespace ckptsim::disk
