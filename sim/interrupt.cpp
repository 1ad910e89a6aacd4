#include "sim/interrupt.h"

#include <atomic>

namespace ckptsim::sim {

namespace {
std::atomic<InterruptPoll> g_poll{nullptr};
}  // namespace

void set_interrupt_poll(InterruptPoll poll) { g_poll.store(poll, std::memory_order_release); }

void poll_interrupt() {
  const InterruptPoll poll = g_poll.load(std::memory_order_acquire);
  if (poll != nullptr && poll()) throw Interrupted();
}

}  // namespace ckptsim::sim
