#include "cli/folder/stop.h"

#include <signal.h>

#include <atomic>
#include <mutex>

#include "sim/interrupt.h"

namespace ckptsim::cli {

namespace {

// Written by the handler: only a lock-free atomic is safe there.
std::atomic<int> g_signal{0};
std::atomic<int> g_signal_count{0};
static_assert(std::atomic<int>::is_always_lock_free);

std::atomic<bool> g_has_deadline{false};
std::chrono::steady_clock::time_point g_deadline;

void on_signal(int signo) {
  g_signal.store(signo);
  g_signal_count.fetch_add(1);
  ::signal(signo, SIG_DFL);  // the second one is not caught
}

}  // namespace

void install_stop_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGHUP, &action, nullptr);
    sim::set_interrupt_poll([] { return stop_requested() != StopReason::none; });
  });
}

StopReason stop_requested() {
  switch (g_signal.load()) {
    case SIGINT: return StopReason::interrupt;
    case SIGTERM: return StopReason::terminate;
    case SIGHUP: return StopReason::hangup;
    default: break;
  }
  if (g_has_deadline.load(std::memory_order_acquire) && std::chrono::steady_clock::now() >= g_deadline)
    return StopReason::max_wall;
  return StopReason::none;
}

void set_wall_budget(std::chrono::duration<double> budget) {
  using clock = std::chrono::steady_clock;
  const clock::time_point now = clock::now();
  // A budget past what the clock's 64-bit nanoseconds reach from now (about
  // 292 years less the uptime) is no deadline: converted, it would wrap to
  // one in the past and stop the run at once.
  const std::chrono::duration<double> reach = clock::time_point::max() - now;
  g_deadline = budget >= reach ? clock::time_point::max()
                               : now + std::chrono::duration_cast<clock::duration>(budget);
  g_has_deadline.store(true, std::memory_order_release);
}

int stop_exit_code(StopReason reason) {
  switch (reason) {
    case StopReason::interrupt: return 128 + SIGINT;
    case StopReason::terminate:
    case StopReason::hangup: return 128 + SIGTERM;
    case StopReason::max_wall: return 3;
    case StopReason::none: break;
  }
  return 0;
}

std::string stop_description(StopReason reason) {
  switch (reason) {
    case StopReason::interrupt: return "interrupted (SIGINT)";
    case StopReason::terminate: return "terminated (SIGTERM)";
    case StopReason::hangup: return "hung up (SIGHUP)";
    case StopReason::max_wall: return "stopped by --max-wall";
    case StopReason::none: break;
  }
  return "not stopped";
}

SignalWatch::SignalWatch() : seen_(g_signal_count.load()) {}

void SignalWatch::throw_if_signalled() const {
  if (g_signal_count.load() != seen_) throw Stopped(stop_requested());
}

}  // namespace ckptsim::cli
