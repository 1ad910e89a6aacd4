// sim/condition.cpp
#include "sim/condition.h"

namespace ckptsim::sim {

void Condition::notify_one() {
  if (waiters_.empty()) return;
  Waiter& first = waiters_.front();
  waiters_.pop_front();
  sim_.resume_now(first.coroutine);
}

void Condition::notify_all() {
  while (!waiters_.empty()) notify_one();
}

}  // namespace ckptsim::sim
