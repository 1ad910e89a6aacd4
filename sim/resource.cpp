// sim/resource.cpp
#include "sim/resource.h"

#include <stdexcept>

namespace ckptsim::sim {

Resource::Resource(Simulator& sim, int capacity) : sim_(sim), capacity_(capacity), since_(sim.now()) {
  if (capacity < 1) throw std::invalid_argument("Resource capacity must be at least 1");
}

void Resource::release() {
  if (in_use_ <= 0) throw std::logic_error("Resource::release without a unit in use");
  if (waiters_.empty()) {
    account();
    --in_use_;
    return;
  }
  // Hand-over: the unit stays in use, so busy time needs no update.
  Claim& next = waiters_.front();
  waiters_.pop_front();
  sim_.resume_at(sim_.now() + (next.timed ? next.hold : 0), next.coroutine);
}

}  // namespace ckptsim::sim
