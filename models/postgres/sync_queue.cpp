// models/postgres/sync_queue.cpp
//
// The fsync request queue, its compaction, and pendingOps with sync cycles.
#include "models/postgres/sync_queue.h"

#include <algorithm>

namespace ckptsim::postgres {

SyncQueue::SyncQueue(std::int64_t capacity, bool compaction, std::int32_t max_segments_hint)
    : capacity_(capacity), compaction_(compaction) {
  queue_.reserve(static_cast<std::size_t>(capacity));
  if (max_segments_hint > 0) grow(max_segments_hint - 1);
}

void SyncQueue::grow(SegmentId seg) {
  if (static_cast<std::size_t>(seg) < entry_cycle_.size()) return;
  entry_cycle_.resize(static_cast<std::size_t>(seg) + 64, 0);
  seen_.resize(entry_cycle_.size(), 0);
}

bool SyncQueue::forward(SegmentId seg) {
  if (static_cast<std::int64_t>(queue_.size()) >= capacity_) {
    if (!compaction_) return false;
    // CompactCheckpointerRequestQueue: keep the last of each set of identical requests.
    grow(*std::max_element(queue_.begin(), queue_.end()));
    std::size_t kept = queue_.size();
    for (std::size_t i = queue_.size(); i-- > 0;) {
      const SegmentId s = queue_[i];
      if (seen_[static_cast<std::size_t>(s)]) {
        queue_[i] = -1;
        --kept;
      } else {
        seen_[static_cast<std::size_t>(s)] = 1;
      }
    }
    for (const SegmentId s : queue_) {
      if (s >= 0) seen_[static_cast<std::size_t>(s)] = 0;
    }
    if (kept == queue_.size()) return false;  // no duplicates: nothing to free
    queue_.erase(std::remove(queue_.begin(), queue_.end(), -1), queue_.end());
    ++compactions_;
  }
  queue_.push_back(seg);
  // 9.2+: a sender that sees the queue half full sets the checkpointer's latch.
  if (wake_ && static_cast<std::int64_t>(queue_.size()) >= capacity_ / 2) wake_();
  return true;
}

void SyncQueue::remember(SegmentId seg) {
  grow(seg);
  std::uint32_t& entry = entry_cycle_[static_cast<std::size_t>(seg)];
  if (entry != 0) return;  // an existing entry keeps its cycle
  entry = cycle_ + 1;
  pending_list_.push_back(seg);
}

void SyncQueue::absorb() {
  for (const SegmentId seg : queue_) remember(seg);
  queue_.clear();
}

const std::vector<SegmentId>& SyncQueue::start_sync_cycle() {
  absorb();
  to_sync_.clear();
  for (const SegmentId seg : pending_list_) {
    if (entry_cycle_[static_cast<std::size_t>(seg)] == cycle_ + 1) to_sync_.push_back(seg);
  }
  ++cycle_;
  // Stable order (segment ids follow file creation), as a hash scan would give some fixed order.
  std::sort(to_sync_.begin(), to_sync_.end());
  return to_sync_;
}

bool SyncQueue::pending(SegmentId seg) const {
  return static_cast<std::size_t>(seg) < entry_cycle_.size() && entry_cycle_[static_cast<std::size_t>(seg)] != 0;
}

void SyncQueue::forget(SegmentId seg) {
  entry_cycle_[static_cast<std::size_t>(seg)] = 0;
  pending_list_.erase(std::find(pending_list_.begin(), pending_list_.end(), seg));
}

}  // namespace ckptsim::postgres
