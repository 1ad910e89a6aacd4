// models/os/request_pool.cpp
#include "models/os/request_pool.h"

#include <algorithm>

namespace ckptsim::os {

RequestPool::RequestPool(sim::Simulator& sim, bool legacy, int nr_requests, disk::CommandOwner& owner)
    : legacy_(legacy), nr_requests_(nr_requests) {
  const int pools = legacy ? 2 : 1;
  for (int p = 0; p < pools; ++p)
    slots_[static_cast<std::size_t>(p)] = std::make_unique<sim::Resource>(sim, nr_requests);
  const int total = pools * nr_requests;
  requests_.reserve(static_cast<std::size_t>(total));
  for (int i = 0; i < total; ++i) {
    requests_.push_back(std::make_unique<Request>());
    requests_.back()->owner = &owner;
    free_.push_back(*requests_.back());
  }
}

RequestPool::~RequestPool() {
  free_.clear();
  for (RequestList& list : handed_) list.clear();
  for (auto& rq : requests_) rq->bios.clear();
}

Request* RequestPool::alloc(bool sync) {
  // Each pool's slots never exceed its share of the objects, so a free slot has a free object.
  if (!slots(sync).try_acquire()) return nullptr;
  Request& rq = free_.front();
  free_.pop_front();
  rq.sync = sync;
  return &rq;
}

sim::Task<Request&> RequestPool::get(bool sync) {
  if (Request* rq = alloc(sync)) co_return *rq;
  co_await slots(sync).acquire();
  // put() handed this sleeper the request it freed; sleepers wake in the order they were handed one.
  RequestList& handed = handed_[static_cast<std::size_t>(pool_of(sync))];
  Request& rq = handed.front();
  handed.pop_front();
  rq.sync = sync;
  co_return rq;
}

void RequestPool::put(Request& rq) {
  rq.state = RequestState::Free;
  sim::Resource& pool = slots(rq.sync);
  if (pool.has_waiters()) {
    handed_[static_cast<std::size_t>(pool_of(rq.sync))].push_back(rq);
  } else {
    free_.push_front(rq);
  }
  pool.release();
}

bool RequestPool::congested(bool sync) const {
  const int nr = nr_requests_;
  const int threshold = std::min(nr - nr / 8 + 1, nr);
  return allocated(sync) >= threshold || slots(sync).has_waiters();
}

}  // namespace ckptsim::os
