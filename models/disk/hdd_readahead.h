// models/disk/hdd_readahead.h
//
// A drive's read-ahead into its read segment (docs/reference/os-disk-model.md 4.4;
// DiskSim's cache "prefetch" on reads): after a media read the head keeps
// reading consecutive sectors, up to read_segment past the read, for as long
// as no other operation takes the mechanism. A read inside what has been
// read by now is a buffer hit; a read just ahead of the stream rides it
// without seek or rotational wait; a write over the segment makes it stale.
//
// Left out: several read segments and their LRU, read-ahead after writes,
// partial hits (a read that starts inside the segment but ends beyond it
// goes to the media).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "models/disk/device.h"
#include "sim/time.h"

namespace ckptsim::disk {

inline constexpr sim::Time kNever = std::numeric_limits<sim::Time>::max();

class HddReadahead {
 public:
  // Already read by `now`: served from the buffer at link speed.
  bool holds(const Command& c, sim::Time now) const {
    return sector_ >= 0 && c.sector >= sector_ && c.end_sector() <= limit_ &&
           reached(c.end_sector()) <= std::min(now, stop_);
  }
  // The stream will reach the end of the read before it stops.
  bool covers(const Command& c) const {
    if (c.op != Op::Read || sector_ < 0 || c.sector < sector_ || c.end_sector() > limit_) return false;
    return stop_ == kNever || reached(c.end_sector()) <= stop_;
  }
  // When the head passes `sector` while streaming.
  sim::Time reached(std::int64_t sector) const {
    const double bytes = static_cast<double>((sector - sector_) * kSectorBytes);
    return time_ + std::llround(bytes / rate_);
  }
  // A read served from the stream: the segment reaches `segment_sectors` past it.
  void ride(const Command& c, std::int64_t segment_sectors) {
    limit_ = std::max(limit_, c.end_sector() + segment_sectors);
  }
  // A media read ended at `end_sector` at `time`: the head streams on at `rate` bytes per ns.
  void start(std::int64_t end_sector, std::int64_t segment_sectors, sim::Time time, double rate) {
    sector_ = end_sector;
    limit_ = sector_ + segment_sectors;
    time_ = time;
    stop_ = kNever;
    rate_ = rate;
  }
  // The mechanism leaves the stream now.
  void stop(sim::Time now) {
    if (stop_ > now) stop_ = now;
  }
  // Data written to [sector, end_sector) on the media: a segment over it is stale.
  void written(std::int64_t sector, std::int64_t end_sector) {
    if (sector < limit_ && end_sector > sector_) sector_ = -1;
  }

 private:
  // The head passed sector_ at time_ and reads up to limit_ until stop_.
  std::int64_t sector_ = -1;
  std::int64_t limit_ = -1;
  sim::Time time_ = 0;
  sim::Time stop_ = 0;
  double rate_ = 1;
};

}  // namespace ckptsim::disk
