// models/disk/hdd_write_cache.cpp
#include "models/disk/hdd_write_cache.h"

#include "models/disk/device.h"

namespace ckptsim::disk {

HddWriteCache::HddWriteCache(std::int64_t max_bytes, std::int64_t max_extents)
    : extents_(static_cast<std::size_t>(max_extents > 0 ? max_extents : 1)), max_bytes_(max_bytes) {}

bool HddWriteCache::admit(std::int64_t sector, std::int64_t bytes, std::uint64_t seq) {
  const std::int64_t end = sector + bytes / kSectorBytes;
  Extent* free_slot = nullptr;
  for (Extent& e : extents_) {
    if (!e.used) {
      if (free_slot == nullptr) free_slot = &e;
      continue;
    }
    if (e.destaging) continue;
    if (e.sector == sector && e.bytes == bytes) {  // rewrite: same space, newer data
      e.seq = seq;
      return true;
    }
    const std::int64_t e_end = e.sector + e.bytes / kSectorBytes;
    const bool back = e_end == sector, front = end == e.sector;
    if ((back || front) && e.bytes + bytes <= kMaxExtentBytes) {
      if (dirty_bytes_ + bytes > max_bytes_) return false;
      if (front) e.sector = sector;
      e.bytes += bytes;
      e.seq = seq;
      dirty_bytes_ += bytes;
      return true;
    }
  }
  if (free_slot == nullptr || dirty_bytes_ + bytes > max_bytes_) return false;
  *free_slot = Extent{sector, bytes, seq, seq, true, false};
  dirty_bytes_ += bytes;
  ++used_;
  return true;
}

bool HddWriteCache::covers(std::int64_t sector, std::int64_t bytes) const {
  const std::int64_t end = sector + bytes / kSectorBytes;
  for (const Extent& e : extents_) {
    if (e.used && e.sector <= sector && end <= e.sector + e.bytes / kSectorBytes) return true;
  }
  return false;
}

void HddWriteCache::mark_destaging(int index) {
  extents_[static_cast<std::size_t>(index)].destaging = true;
  ++destaging_;
}

void HddWriteCache::finish_destage(int index) {
  Extent& e = extents_[static_cast<std::size_t>(index)];
  dirty_bytes_ -= e.bytes;
  --used_;
  --destaging_;
  e = Extent{};
}

bool HddWriteCache::holds_up_to(std::uint64_t seq) const {
  for (const Extent& e : extents_) {
    if (e.used && e.seq <= seq) return true;
  }
  return false;
}

}  // namespace ckptsim::disk
