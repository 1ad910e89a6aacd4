// models/disk/bbwc_extents.cpp
#include "models/disk/bbwc_extents.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace ckptsim::disk {

namespace {
constexpr std::int64_t kMaxExtentBytes = 512 * 1024;  // a destage is at most one max_sectors_kb request
constexpr int kExtentChunk = 4096;
}  // namespace

// Orders extents against a bare sector, for lookups in the tree.
struct BbwcExtents::SectorLess {
  bool operator()(const Extent& e, std::int64_t s) const { return e.sector < s; }
  bool operator()(std::int64_t s, const Extent& e) const { return s < e.sector; }
};

BbwcExtents::Extent* BbwcExtents::new_extent() {
  if (free_.empty()) {
    chunks_.push_back(std::make_unique<Extent[]>(kExtentChunk));
    for (int i = kExtentChunk - 1; i >= 0; --i) free_.push_back(&chunks_.back()[i]);
  }
  Extent* e = free_.back();
  free_.pop_back();
  return e;
}

// The write joins the dirty extents it overlaps or touches (XLogWrite
// rewrites the last partial WAL page with each commit, so WAL writes overlap
// by a page) unless they are being destaged, and only the bytes not cached
// yet count: a rewrite costs no room.
BbwcExtents::Admitted BbwcExtents::admit(const Command& w) {
  std::int64_t first = w.sector;
  const std::int64_t last = w.end_sector();
  // The run of extents the write joins: the one before if it reaches the
  // write, then those that start inside or right after it.
  auto begin = dirty_.lower_bound(first, SectorLess());
  if (begin != dirty_.begin()) {
    auto before = std::prev(begin);
    if (!before->destaging && before->end_sector() >= first) begin = before;
  }
  auto end = begin;
  while (end != dirty_.end() && end->sector <= last && !end->destaging) ++end;  // data in flight stays apart
  const auto span = [&](auto from) {
    std::int64_t lo = first, hi = last;
    for (auto x = from; x != end; ++x) {
      lo = std::min(lo, x->sector);
      hi = std::max(hi, x->end_sector());
    }
    return std::pair{lo, hi};
  };
  const auto too_long = [](std::pair<std::int64_t, std::int64_t> r) {
    return (r.second - r.first) * kSectorBytes > kMaxExtentBytes;
  };
  if (begin != end && begin->sector < w.sector && too_long(span(begin))) {
    // Too long for one destage: the part the extent before holds is absorbed
    // there, the rest joins what follows.
    first = std::min(begin->end_sector(), last);
    ++begin;
    if (first == last) return Admitted::Absorbed;
  }
  if (too_long(span(begin))) begin = end = dirty_.end();  // keep the write apart
  const auto [lo, hi] = span(begin);
  std::int64_t joined_bytes = 0;
  for (auto x = begin; x != end; ++x) joined_bytes += x->bytes;
  const std::int64_t added = (hi - lo) * kSectorBytes - joined_bytes;
  if (dirty_bytes_ + added > cache_bytes_) return Admitted::NoRoom;

  std::uint64_t epoch = flush_epoch_;  // the merged extent is as old as its oldest part
  for (auto x = begin; x != end;) {
    Extent& e = *x;
    x = dirty_.erase(x);
    epoch = std::min(epoch, e.epoch);
    if (e.epoch == flush_epoch_) --fresh_;
    free_.push_back(&e);
  }
  Extent* e = new_extent();
  e->sector = lo;
  e->bytes = (hi - lo) * kSectorBytes;
  e->destaging = false;
  e->epoch = epoch;
  if (epoch == flush_epoch_) ++fresh_;
  dirty_.insert(*e);
  dirty_bytes_ += added;
  return Admitted::NewExtent;
}

bool BbwcExtents::covered(const Command& r) const {
  auto it = dirty_.upper_bound(r.sector, SectorLess());
  if (it == dirty_.begin()) return false;
  const Extent& e = *std::prev(it);
  return e.end_sector() >= r.end_sector();
}

BbwcExtents::Extent* BbwcExtents::next_for_destage(bool fresh_too) {
  auto it = dirty_.lower_bound(cursor_, SectorLess());
  for (int pass = 0; pass < 2; ++pass) {
    for (; it != dirty_.end(); ++it) {
      if (!it->destaging && (fresh_too || it->epoch != flush_epoch_)) return &*it;
    }
    it = dirty_.begin();  // C-LOOK: back to the lowest sector
  }
  return nullptr;
}

void BbwcExtents::destage_started(Extent& e) {
  if (e.epoch == flush_epoch_) --fresh_;
  e.destaging = true;
  cursor_ = e.end_sector();
}

void BbwcExtents::destage_done(Extent& e) {
  dirty_bytes_ -= e.bytes;
  dirty_.erase(dirty_.iterator_to(e));
  free_.push_back(&e);
}

}  // namespace ckptsim::disk
