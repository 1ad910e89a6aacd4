// models/disk/hdd_write_cache.h
//
// The dirty side of a drive's write-back cache (WCE = 1, docs/reference/os-disk-model.md
// 4.5): host writes accepted before they reach the platters, kept as extents
// until the mechanism destages them.
//
// Bounded twice, as drive firmware is: by dirty bytes (the effective dirty
// space, D_max) and by extents (write segments, E_max). A write that
// continues an extent not yet being destaged is merged into it; a rewrite of
// exactly the same range is absorbed. Each extent carries the sequence
// number of its newest write, so that a flush knows which data it must wait
// for, and of the write that opened it, its age for a FIFO destage or a
// destage window (hdd.h). Storage is a fixed array: no allocation after
// construction.
//
// Left out: partial overlaps (kept as separate extents), read segments
// sharing the buffer with dirty data.
#pragma once

#include <cstdint>
#include <vector>

namespace ckptsim::disk {

class HddWriteCache {
 public:
  struct Extent {
    std::int64_t sector = 0;
    std::int64_t bytes = 0;
    std::uint64_t seq = 0;   // newest write merged into it
    std::uint64_t born = 0;  // the write that opened it: its place in arrival order
    bool used = false;
    bool destaging = false;  // handed to the mechanism; space freed when it ends
  };

  HddWriteCache(std::int64_t max_bytes, std::int64_t max_extents);

  // Takes the write if it fits; returns false (nothing changed) otherwise.
  bool admit(std::int64_t sector, std::int64_t bytes, std::uint64_t seq);
  // True when [sector, sector + bytes) lies inside one dirty extent.
  bool covers(std::int64_t sector, std::int64_t bytes) const;
  void finish_destage(int index);

  // Any extent written at or before `seq` still dirty (a flush's condition).
  bool holds_up_to(std::uint64_t seq) const;

  std::vector<Extent>& extents() { return extents_; }
  const std::vector<Extent>& extents() const { return extents_; }
  std::int64_t dirty_bytes() const { return dirty_bytes_; }
  int dirty_extents() const { return used_; }
  int idle_extents() const { return used_ - destaging_; }  // dirty and not yet destaging
  bool full() const { return dirty_bytes_ >= max_bytes_ || used_ >= static_cast<int>(extents_.size()); }
  std::int64_t max_bytes() const { return max_bytes_; }
  void mark_destaging(int index);

 private:
  static constexpr std::int64_t kMaxExtentBytes = 2 * 1024 * 1024;  // one destage at most

  std::vector<Extent> extents_;
  std::int64_t max_bytes_;
  std::int64_t dirty_bytes_ = 0;
  int used_ = 0;
  int destaging_ = 0;
};

}  // namespace ckptsim::disk
