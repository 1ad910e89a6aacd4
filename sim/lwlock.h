// sim/lwlock.h
//
// A lock with shared and exclusive modes, after PostgreSQL's LWLock
// (src/backend/storage/lmgr/lwlock.c), held through a scoped Guard.
//
// - `auto held = co_await lock.exclusive();` (or shared()) waits until the
//   mode is free and takes it; the Guard gives it back when it goes out of
//   scope (or at unlock()).
// - `if (auto held = lock.try_exclusive()) {...}` takes it only if free
//   (LWLockConditionalAcquire).
// - `co_await lock.released()` waits for the next release without taking
//   the lock: the waiting half of LWLockAcquireOrWait, whose caller then
//   re-checks whether the holder's work covered it.
//
// A release wakes every waiter, in the order they began waiting, and each
// re-checks (as LWLockRelease wakes all that could now proceed). Left out:
// LWLock's wait-queue fairness (a newcomer can take a free lock before a
// woken waiter runs), lock statistics. A Guard destroyed while the Simulator
// tears down suspended processes leaves the lock alone: nobody is left to
// wake.
#pragma once

#include <utility>

#include "sim/condition.h"
#include "sim/process.h"
#include "sim/simulator.h"

namespace ckptsim::sim {

class LWLock {
 public:
  enum class Mode { Shared, Exclusive };

  // 40 bytes: shared buffers hold one per buffer.
  explicit LWLock(Simulator& sim) noexcept : released_(sim) {}
  LWLock(const LWLock&) = delete;
  LWLock& operator=(const LWLock&) = delete;

  class [[nodiscard]] Guard {
   public:
    Guard() noexcept = default;
    Guard(Guard&& other) noexcept : sim_(other.sim_), lock_(std::exchange(other.lock_, nullptr)), mode_(other.mode_) {}
    Guard& operator=(Guard&& other) noexcept {
      if (this != &other) {
        unlock();
        sim_ = other.sim_;
        lock_ = std::exchange(other.lock_, nullptr);
        mode_ = other.mode_;
      }
      return *this;
    }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;
    // At teardown the lock's owner may be gone already: ask the Simulator, which outlives every frame.
    ~Guard() {
      if (lock_ != nullptr && !sim_->tearing_down()) unlock();
    }

    explicit operator bool() const noexcept { return lock_ != nullptr; }
    void unlock() {
      if (lock_ != nullptr) std::exchange(lock_, nullptr)->release(mode_);
    }

   private:
    friend class LWLock;
    Guard(LWLock& lock, Mode mode) noexcept : sim_(&lock.released_.simulator()), lock_(&lock), mode_(mode) {}
    const Simulator* sim_ = nullptr;
    LWLock* lock_ = nullptr;
    Mode mode_ = Mode::Exclusive;
  };

  bool free_for(Mode mode) const noexcept { return !exclusive_ && (mode == Mode::Shared || shared_ == 0); }
  bool held() const noexcept { return exclusive_ || shared_ > 0; }
  bool held_exclusive() const noexcept { return exclusive_; }
  int shared_holders() const noexcept { return shared_; }

  Guard try_acquire(Mode mode) noexcept {
    if (!free_for(mode)) return {};
    take(mode);
    return Guard(*this, mode);
  }
  Guard try_exclusive() noexcept { return try_acquire(Mode::Exclusive); }
  Guard try_shared() noexcept { return try_acquire(Mode::Shared); }

  Task<Guard> acquire(Mode mode) {
    while (!free_for(mode)) co_await released_.wait();
    take(mode);
    co_return Guard(*this, mode);
  }
  Task<Guard> exclusive() { return acquire(Mode::Exclusive); }
  Task<Guard> shared() { return acquire(Mode::Shared); }

  Condition::WaitAwaiter released() noexcept { return released_.wait(); }
  std::size_t waiters() const noexcept { return released_.waiters(); }

 private:
  void take(Mode mode) noexcept {
    if (mode == Mode::Exclusive) {
      exclusive_ = true;
    } else {
      ++shared_;
    }
  }
  void release(Mode mode) {
    if (mode == Mode::Exclusive) {
      exclusive_ = false;
    } else if (--shared_ > 0) {
      return;  // still held: nobody waiting could proceed
    }
    released_.notify_all();
  }

  bool exclusive_ = false;
  int shared_ = 0;
  Condition released_;
};

}  // namespace ckptsim::sim
