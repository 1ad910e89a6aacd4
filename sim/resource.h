// sim/resource.h
//
// A pool of identical servers, such as the CPU cores that backends and
// pgbench threads compete for.
//
// Grants are strictly FIFO: a unit is free for a newcomer only when nobody
// is queued, and release() hands the unit straight to the first waiter
// (which resumes through the event queue at the current time), so a
// newcomer arriving in the same instant cannot overtake it.
//
// use(d) is the hot path (every transaction's CPU slice): acquire, hold for
// d, release, as one awaitable with one event when the unit is free and two
// when it must wait, and no allocation.
//
// Accounting: busy_time() is the integral of units in use over simulated
// time, so utilisation over an interval is its increase / (capacity * length).
//
// Left out: priorities, preemption, time slicing (a holder keeps its unit
// for its whole slice).
#pragma once

#include <coroutine>
#include <cstddef>
#include <utility>

#include "sim/simulator.h"
#include "sim/time.h"
#include "sim/wait_list.h"

namespace ckptsim::sim {

class Resource {
 public:
  Resource(Simulator& sim, int capacity);
  Resource(const Resource&) = delete;
  Resource& operator=(const Resource&) = delete;

 private:
  struct Claim : Waiter {
    Duration hold = 0;   // for use(): how long to keep the unit once granted
    bool timed = false;  // use() (resume when the hold ends) or acquire() (resume at grant)
  };

 public:
  class AcquireAwaiter {
   public:
    bool await_ready() noexcept { return res_.try_take(); }
    void await_suspend(std::coroutine_handle<> self) noexcept { res_.enqueue(claim_, self); }
    void await_resume() const noexcept {}

   private:
    friend class Resource;
    explicit AcquireAwaiter(Resource& res) noexcept : res_(res) {}
    Resource& res_;
    Claim claim_;
  };

  class UseAwaiter {
   public:
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> self) {
      if (res_.try_take()) {
        res_.sim_.resume_at(res_.sim_.now() + claim_.hold, self);
      } else {
        res_.enqueue(claim_, self);
      }
    }
    void await_resume() { res_.release(); }

   private:
    friend class Resource;
    UseAwaiter(Resource& res, Duration hold) noexcept : res_(res) {
      claim_.hold = hold > 0 ? hold : 0;
      claim_.timed = true;
    }
    Resource& res_;
    Claim claim_;
  };

  // A unit held for a scope: given back when the Held goes out of scope
  // (not while the Simulator tears down suspended processes).
  class [[nodiscard]] Held {
   public:
    Held(Held&& other) noexcept : sim_(other.sim_), res_(std::exchange(other.res_, nullptr)) {}
    Held& operator=(Held&&) = delete;
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    // At teardown the Resource may be gone already: ask the Simulator, which outlives every frame.
    ~Held() {
      if (res_ != nullptr && !sim_->tearing_down()) res_->release();
    }

   private:
    friend class Resource;
    explicit Held(Resource& res) noexcept : sim_(&res.sim_), res_(&res) {}
    const Simulator* sim_;
    Resource* res_;
  };

  class HoldAwaiter {
   public:
    bool await_ready() noexcept { return inner_.await_ready(); }
    void await_suspend(std::coroutine_handle<> self) noexcept { inner_.await_suspend(self); }
    Held await_resume() const noexcept { return Held(res_); }

   private:
    friend class Resource;
    explicit HoldAwaiter(Resource& res) noexcept : res_(res), inner_(res) {}
    Resource& res_;
    AcquireAwaiter inner_;
  };

  // `co_await res.acquire()`: take a unit (waiting in FIFO order); give it
  // back with release().
  AcquireAwaiter acquire() noexcept { return AcquireAwaiter(*this); }
  // `const auto held = co_await res.hold();`: take a unit for the rest of the scope.
  HoldAwaiter hold() noexcept { return HoldAwaiter(*this); }
  // `co_await res.use(d)`: take a unit, hold it for d, give it back.
  UseAwaiter use(Duration d) noexcept { return UseAwaiter(*this, d); }
  // Takes a unit only if one is free for a newcomer (nobody queued), without waiting.
  bool try_acquire() noexcept { return try_take(); }
  // Gives a unit back: to the first waiter if any, else to the pool.
  void release();

  int capacity() const noexcept { return capacity_; }
  int in_use() const noexcept { return in_use_; }
  std::size_t queue_length() const noexcept { return waiters_.size(); }  // O(n)
  bool has_waiters() const noexcept { return !waiters_.empty(); }
  Duration busy_time() const noexcept { return busy_ + in_use_ * (sim_.now() - since_); }

 private:
  bool try_take() noexcept {
    if (in_use_ >= capacity_ || !waiters_.empty()) return false;
    account();
    ++in_use_;
    return true;
  }
  void enqueue(Claim& claim, std::coroutine_handle<> self) noexcept {
    claim.coroutine = self;
    waiters_.push_back(claim);
  }
  // Folds the busy time up to now into busy_, before in_use_ changes.
  void account() noexcept {
    busy_ += in_use_ * (sim_.now() - since_);
    since_ = sim_.now();
  }

  Simulator& sim_;
  int capacity_;
  int in_use_ = 0;
  Duration busy_ = 0;
  Time since_ = 0;
  WaitList<Claim> waiters_;
};

}  // namespace ckptsim::sim
