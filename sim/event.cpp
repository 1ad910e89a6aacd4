// sim/event.cpp
#include "sim/event.h"

namespace ckptsim::sim {

void Event::set() {
  set_ = true;
  while (!waiters_.empty()) {
    Waiter& first = waiters_.front();
    waiters_.pop_front();
    sim_.resume_now(first.coroutine);
  }
}

}  // namespace ckptsim::sim
