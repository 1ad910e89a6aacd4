// models/disk/bbwc_extents.h
//
// The dirty data of a controller's battery-backed write cache (see
// controller_cache.h): extents in a tree by sector, the bytes they hold
// against the cache size, and which of them are "fresh" (written since the
// last periodic flush, so not yet due below the low watermark).
//
// Overlapping and adjacent writes are merged into one extent up to 512 kB
// (one max_sectors_kb destage) unless the neighbour is being destaged, and a
// rewrite of cached data takes no room, so the cache also coalesces; a merged
// extent is as old as its oldest part. Destage candidates come in C-LOOK
// order: ascending sector from where the last destage ended, wrapping to the
// lowest. Extents come from a pool that grows in chunks and is never freed:
// no allocation per command once warm.
//
// Left out: read caching, partial destages of an extent.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <boost/intrusive/set.hpp>

#include "models/disk/device.h"

namespace ckptsim::disk {

class BbwcExtents {
 public:
  struct Extent : boost::intrusive::set_base_hook<> {
    std::int64_t sector = 0;
    std::int64_t bytes = 0;
    bool destaging = false;
    std::uint64_t epoch = 0;  // the periodic flush pass during which it was created
    std::int64_t end_sector() const { return sector + bytes / kSectorBytes; }
    friend bool operator<(const Extent& a, const Extent& b) { return a.sector < b.sector; }
  };

  explicit BbwcExtents(std::int64_t cache_bytes) : cache_bytes_(cache_bytes) {}
  ~BbwcExtents() { dirty_.clear(); }
  BbwcExtents(const BbwcExtents&) = delete;
  BbwcExtents& operator=(const BbwcExtents&) = delete;

  enum class Admitted { NoRoom, Absorbed, NewExtent };
  // A write into the cache if there is room: absorbed by the extent before
  // it, or as an extent of its own that may have swallowed its neighbours.
  Admitted admit(const Command& write);
  // A read wholly inside one dirty extent.
  bool covered(const Command& read) const;
  // The next extent to destage in C-LOOK order; fresh ones only if `fresh_too`.
  Extent* next_for_destage(bool fresh_too);
  void destage_started(Extent& e);
  void destage_done(Extent& e);
  // A periodic flush: everything dirty now is due.
  void new_epoch() {
    ++flush_epoch_;
    fresh_ = 0;
  }

  std::int64_t dirty_bytes() const { return dirty_bytes_; }
  std::int64_t count() const { return static_cast<std::int64_t>(dirty_.size()); }
  // Extents not destaging and created since the last periodic flush.
  std::int64_t fresh() const { return fresh_; }
  double occupancy() const { return static_cast<double>(dirty_bytes_) / static_cast<double>(cache_bytes_); }

 private:
  using ExtentTree = boost::intrusive::multiset<Extent>;
  struct SectorLess;
  Extent* new_extent();

  std::int64_t cache_bytes_;
  ExtentTree dirty_;
  std::int64_t dirty_bytes_ = 0;
  std::int64_t cursor_ = 0;  // elevator position: the end of the last destage
  std::uint64_t flush_epoch_ = 0;
  std::int64_t fresh_ = 0;
  std::vector<std::unique_ptr<Extent[]>> chunks_;
  std::vector<Extent*> free_;
};

}  // namespace ckptsim::disk
