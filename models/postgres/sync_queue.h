// models/postgres/sync_queue.h
//
// The fsync request queue in shared memory and the checkpointer's table of
// pending fsyncs (ForwardSyncRequest / AbsorbSyncRequests /
// CompactCheckpointerRequestQueue in checkpointer.c; pendingOps in sync.c,
// md.c before 12).
//
// Every process but the checkpointer that writes or extends a block sends
// one request naming the segment file. The queue holds NBuffers requests.
// When it is full, 9.1+ first compacts it (drops every request that has an
// identical later one); if that frees nothing, or in 9.0 always, the sender
// must fsync the file itself (buffers_backend_fsync). A sender that finds
// the queue at least half full wakes the checkpointer (9.2+).
//
// The checkpointer absorbs requests into pendingOps: one entry per segment,
// tagged with the sync cycle in which it was created. The sync phase fsyncs
// the entries of the cycle that was current when it began; entries created
// during the phase wait for the next checkpoint.
//
// Left out: cancel / unlink requests (relations are never dropped here).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/postgres/relations.h"

namespace ckptsim::postgres {

class SyncQueue {
 public:
  SyncQueue(std::int64_t capacity, bool compaction, std::int32_t max_segments_hint = 0);

  // ForwardSyncRequest: false when the queue is full and cannot be compacted
  // (the caller must then fsync the segment itself).
  bool forward(SegmentId seg);
  // The checkpointer's own writes go straight into pendingOps.
  void remember(SegmentId seg);
  // AbsorbSyncRequests: moves every queued request into pendingOps.
  void absorb();

  std::size_t queued() const noexcept { return queue_.size(); }
  std::int64_t capacity() const noexcept { return capacity_; }
  bool half_full() const noexcept { return static_cast<std::int64_t>(queue_.size()) >= capacity_ / 2; }
  std::int64_t compactions() const noexcept { return compactions_; }

  // ProcessSyncRequests' start: bumps the cycle and returns the segments
  // whose entries belong to the previous one.
  const std::vector<SegmentId>& start_sync_cycle();
  // Whether the entry is still pending (absorbed and not yet fsync'ed).
  bool pending(SegmentId seg) const;
  void forget(SegmentId seg);
  std::size_t pending_count() const noexcept { return pending_list_.size(); }

  // Called when the queue crosses half full (the checkpointer's latch).
  void on_half_full(std::function<void()> wake) { wake_ = std::move(wake); }

 private:
  void grow(SegmentId seg);

  std::int64_t capacity_;
  bool compaction_;
  std::vector<SegmentId> queue_;
  // pendingOps: per segment, 0 = no entry, else the cycle number + 1 it was created in.
  std::vector<std::uint32_t> entry_cycle_;
  std::vector<SegmentId> pending_list_;  // segments with an entry (may hold forgotten ones lazily)
  std::vector<SegmentId> to_sync_;
  std::vector<std::uint8_t> seen_;  // scratch for compaction
  std::uint32_t cycle_ = 0;
  std::int64_t compactions_ = 0;
  std::function<void()> wake_;
};

}  // namespace ckptsim::postgres
