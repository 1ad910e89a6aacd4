// sim/event_queue.h
//
// The pending-event set of the simulator: a flat 4-ary min-heap of small
// entries ordered by (time, sequence number), so that events due at the same
// instant run in the order they were scheduled (FIFO).
//
// Why 4-ary: with a few hundred pending events, a 4-ary heap is half as deep
// as a binary one and its four children share one or two cache lines, which
// is what the cost of a pop is made of. Entries are 24 bytes and hold only a
// tagged word (a coroutine frame or a timer slot): the heap never owns or
// allocates anything per event once its array has grown to its working size.
//
// Left out: removal of an arbitrary entry. Cancellation is lazy (the owner
// of a timer recognises a stale entry by its sequence number when it pops),
// with a bulk filter to reclaim space when stale entries pile up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/time.h"

namespace ckptsim::sim {

struct QueueEntry {
  Time time;
  std::uint64_t key;       // sequence number << 1 | kind bit: unique, gives FIFO among equal times
  std::uintptr_t payload;  // a coroutine frame address or a timer slot index, by kind
};

class EventQueue {
 public:
  bool empty() const noexcept { return heap_.empty(); }
  std::size_t size() const noexcept { return heap_.size(); }
  const QueueEntry& top() const noexcept { return heap_.front(); }
  void clear() noexcept { heap_.clear(); }

  void push(const QueueEntry& entry) {
    heap_.push_back(entry);
    sift_up(heap_.size() - 1, entry);
  }

  QueueEntry pop() noexcept {
    const QueueEntry first = heap_.front();
    const QueueEntry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0, last);
    return first;
  }

  // Keeps only the entries for which keep(entry) is true, then restores the
  // heap order. Pop order is unaffected: (time, key) is a total order.
  template <class Keep>
  void retain(Keep keep) {
    std::size_t kept = 0;
    for (const QueueEntry& e : heap_) {
      if (keep(e)) heap_[kept++] = e;
    }
    heap_.resize(kept);
    for (std::size_t i = kept; i-- > 0;) sift_down(i, heap_[i]);
  }

 private:
  static constexpr std::size_t kArity = 4;

  static bool before(const QueueEntry& a, const QueueEntry& b) noexcept {
    return a.time < b.time || (a.time == b.time && a.key < b.key);
  }

  void sift_up(std::size_t i, const QueueEntry entry) noexcept {
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!before(entry, heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = entry;
  }

  void sift_down(std::size_t i, const QueueEntry entry) noexcept {
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first_child = i * kArity + 1;
      if (first_child >= n) break;
      const std::size_t end = first_child + kArity < n ? first_child + kArity : n;
      std::size_t best = first_child;
      for (std::size_t c = first_child + 1; c < end; ++c) {
        if (before(heap_[c], heap_[best])) best = c;
      }
      if (!before(heap_[best], entry)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = entry;
  }

  std::vector<QueueEntry> heap_;
};

}  // namespace ckptsim::sim
