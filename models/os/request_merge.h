// models/os/request_merge.h
//
// Merging bios into requests and requests into each other, as 3.x does it:
// blk_attempt_plug_merge and bio_attempt_back_merge / front_merge
// (block/blk-core.c), elv_merge and elv_attempt_insert_merge
// (block/elevator.c), attempt_back_merge / attempt_front_merge
// (block/blk-merge.c).
//
// A bio joins a request of its direction that ends where it starts (back
// merge) or starts where it ends (front merge), first among the task's
// plugged requests, newest first, then among those in the elevator, while
// the result stays within max_sectors_kb and the elevator allows it. A
// request that a merge made adjacent to a queued neighbour absorbs it (or is
// absorbed); the absorbed request's slot returns to the pool and it counts
// as a merge, not an I/O. Each merge counts in rrqm/s, wrqm/s.
//
// The index holds the requests in the elevator by start sector (where the
// kernel hashes them by end sector); a back merge looks at the four requests
// that start just before the bio. Left out: segment and gap limits, discard
// merging.
#pragma once

#include <cstdint>

#include "models/os/bio.h"
#include "models/os/elevator.h"
#include "models/os/io_accounting.h"
#include "models/os/plug.h"
#include "models/os/request_pool.h"
#include "sim/simulator.h"

namespace ckptsim::os {

class RequestMerge {
 public:
  RequestMerge(sim::Simulator& sim, std::int64_t max_sectors, Elevator& elevator, RequestPool& pool,
               IoAccounting& accounting)
      : sim_(sim), max_sectors_(max_sectors), elevator_(elevator), pool_(pool), accounting_(accounting) {}
  ~RequestMerge() { index_.clear(); }
  RequestMerge(const RequestMerge&) = delete;
  RequestMerge& operator=(const RequestMerge&) = delete;

  std::int64_t max_sectors() const { return max_sectors_; }
  // blk_attempt_plug_merge: true when the bio joined one of the plug's requests.
  bool into_plug(Bio& bio, Plug& plug);
  // elv_merge: true when the bio joined a queued request.
  bool into_queue(Bio& bio);
  // elv_rqhash_add / del: a request enters or leaves the elevator.
  void add(Request& rq) { index_.insert(rq); }
  void remove(Request& rq) { index_.erase(index_.iterator_to(rq)); }
  // elv_attempt_insert_merge: a request that just grew or entered may absorb its neighbours.
  void merge_neighbours(Request& rq);

 private:
  bool can_merge(const Request& rq, const Bio& bio) const;
  void back_merge(Request& rq, Bio& bio);
  void front_merge(Request& rq, Bio& bio);
  // Adjacent queued requests: `second` (starting where `first` ends) joins `first`.
  bool try_merge_requests(Request& first, Request& second);

  sim::Simulator& sim_;
  std::int64_t max_sectors_;
  Elevator& elevator_;
  RequestPool& pool_;
  IoAccounting& accounting_;
  MergeIndex index_;  // requests in the elevator, by start sector
};

}  // namespace ckptsim::os
