// models/os/request_pool.h
//
// The request pool of one queue: get_request / get_request_wait,
// blk_put_request -> freed_request and blk_queue_congestion_threshold
// (block/blk-core.c, 3.x); on blk-mq the scheduler or hardware tags
// (blk_mq_get_tag).
//
// Legacy queues have a sync and an async pool of nr_requests each, blk-mq one
// tag pool. A request holds its slot from allocation to completion; when its
// pool is full a submitter sleeps, FIFO (a sim::Resource per pool), and is
// handed the very request the next completion frees, so a newcomer cannot
// overtake it. A pool at least 7/8 full, or with sleepers, is congested (what
// fadvise and writeback consult).
//
// Every request object is made once, at construction. Left out: the
// "batcher" allowance above nr_requests, request priorities, per-cgroup pools.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "models/disk/device.h"
#include "models/os/bio.h"
#include "sim/process.h"
#include "sim/resource.h"
#include "sim/simulator.h"

namespace ckptsim::os {

class RequestPool {
 public:
  // `legacy`: two pools (sync, async) of `nr_requests`, else one. Every
  // request reports its completion to `owner` (the queue).
  RequestPool(sim::Simulator& sim, bool legacy, int nr_requests, disk::CommandOwner& owner);
  ~RequestPool();
  RequestPool(const RequestPool&) = delete;
  RequestPool& operator=(const RequestPool&) = delete;

  int nr_requests() const { return nr_requests_; }
  // get_request: a free request of the class, or null when its pool is full
  // or others already sleep for it.
  Request* alloc(bool sync);
  // get_request_wait: a request of the class, sleeping FIFO for one.
  sim::Task<Request&> get(bool sync);
  // blk_put_request: to the first sleeper of its pool, else back to the pool.
  void put(Request& rq);

  // Requests allocated and not completed, per class (blk-mq counts all as one).
  int allocated(bool sync) const { return slots(sync).in_use(); }
  bool congested(bool sync) const;
  int waiting(bool sync) const { return static_cast<int>(slots(sync).queue_length()); }

 private:
  int pool_of(bool sync) const { return legacy_ && !sync ? 1 : 0; }
  sim::Resource& slots(bool sync) { return *slots_[static_cast<std::size_t>(pool_of(sync))]; }
  const sim::Resource& slots(bool sync) const { return *slots_[static_cast<std::size_t>(pool_of(sync))]; }

  bool legacy_;
  int nr_requests_;
  std::vector<std::unique_ptr<Request>> requests_;
  RequestList free_;
  std::array<std::unique_ptr<sim::Resource>, 2> slots_;  // per pool; [1] unused on blk-mq
  std::array<RequestList, 2> handed_;                    // per pool: freed requests on their way to a woken sleeper
};

}  // namespace ckptsim::os
