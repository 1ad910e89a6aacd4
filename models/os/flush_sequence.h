// models/os/flush_sequence.h
//
// Cache flush sequencing of one queue: blkdev_issue_flush and the flush
// machinery of block/blk-flush.c (blk_insert_flush, flush_end_io), 3.x.
//
// A caller needs a flush issued after its call. Flushes are coalesced: at
// most one is in flight, and every caller that arrives meanwhile shares the
// next one. Flush generations are numbered; a caller waits on the condition
// of the generation that covers it (issued + 1), and with at most one in
// flight only two generations ever have callers, so two sim::Conditions
// alternate. A device without a volatile cache needs no flush.
//
// The queue owns dispatch: it asks pending() and issue() whenever it runs,
// since a flush bypasses the elevator and, on a device without queued
// flushes (SATA), waits for the device queue to drain while nothing else is
// dispatched. Left out: the PREFLUSH / POSTFLUSH / FUA sequence of a data
// request (only empty flushes are issued).
#pragma once

#include <array>
#include <cstdint>

#include "models/disk/device.h"
#include "sim/condition.h"
#include "sim/simulator.h"
#include "sim/time.h"

namespace ckptsim::os {

class FlushSequence {
 public:
  FlushSequence(sim::Simulator& sim, disk::CommandOwner& owner, bool volatile_cache);

  bool needed() const { return volatile_cache_; }
  // A caller wants a flush issued from now on: the condition it waits on.
  sim::Condition& request() {
    wanted_ = true;
    return covered(issued_ + 1);
  }
  // A flush is wanted and none is in flight: the queue may issue it.
  bool pending() const { return wanted_ && !in_flight_; }
  bool in_flight() const { return in_flight_; }
  // The flush command to send now.
  disk::Command& issue(sim::Time now);
  bool is_flush(const disk::Command& command) const { return &command == &command_; }
  // The flush in flight completed: its callers wake. Returns how long it took.
  sim::Duration completed(sim::Time now);

 private:
  sim::Condition& covered(std::uint64_t generation) { return covered_[generation % 2]; }

  bool volatile_cache_;
  disk::Command command_;
  bool in_flight_ = false;
  bool wanted_ = false;  // a caller needs a flush not yet issued
  std::uint64_t issued_ = 0;
  std::uint64_t done_ = 0;
  sim::Time started_ = 0;
  std::array<sim::Condition, 2> covered_;  // by generation parity
};

}  // namespace ckptsim::os
