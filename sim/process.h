// sim/process.h
//
// The two coroutine types a model is written with.
//
// Process: an actor (a pgbench client, the bgwriter, the checkpointer). It is
// created suspended and handed to Simulator::spawn, which owns its frame from
// then on: the frame is destroyed when the body returns, or by the
// Simulator's destructor if it is still suspended then. An exception that
// escapes the body is handed to the Simulator, which rethrows it out of
// run()/run_until() after the current event.
//
// Task<T>: a sub-step that an actor awaits (`int x = co_await read_page();`).
// It starts lazily when awaited. Whatever a task awaits suspends the whole
// chain up to its process. Its value or exception is delivered to the
// awaiter. T may be void, a value type or an lvalue reference.
//
// Handing control back: a task that finishes without waiting (a buffer hit)
// returns into its awaiter's await_suspend, which then declines to suspend;
// a task that waited resumes its awaiter by symmetric transfer. Neither costs
// an event, and a loop over tasks that complete at once does not grow the
// stack, even in unoptimised builds where g++ does not turn symmetric
// transfer into a tail call.
//
// Left out: cancelling a process from outside, and awaiting a task twice.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

#include <boost/intrusive/list_hook.hpp>

#include "sim/frame_pool.h"
#include "sim/profile_hook.h"

namespace ckptsim::sim {

class Simulator;

namespace detail {

// What both promise types do with their frame: take its memory from the
// thread's FramePool, and tell the thread's profile, if any, which class's
// code it runs (a member coroutine's first parameter is its object,
// profile_hook.h) and when it is gone.
template <class Promise>
class FrameHooks {
 public:
  FrameHooks() = default;
  template <class Owner, class... Rest>
  explicit FrameHooks(Owner& owner, Rest&... /*rest*/) {
    note_frame_made(frame(), typeid(owner));
  }
  ~FrameHooks() { note_frame_gone(frame()); }
  FrameHooks(const FrameHooks&) = delete;
  FrameHooks& operator=(const FrameHooks&) = delete;
  static void* operator new(std::size_t n) { return FramePool::allocate(n); }
  static void operator delete(void* p, std::size_t n) noexcept { FramePool::release(p, n); }

 private:
  // Address arithmetic only: valid while the promise is being made or destroyed.
  void* frame() noexcept {
    return std::coroutine_handle<Promise>::from_promise(*static_cast<Promise*>(this)).address();
  }
};

}  // namespace detail

class Process {
 public:
  // auto_unlink: a finished frame leaves the Simulator's list of live
  // processes by itself, whatever the order of destruction.
  class promise_type
      : public boost::intrusive::list_base_hook<boost::intrusive::link_mode<boost::intrusive::auto_unlink>>,
        public detail::FrameHooks<promise_type> {
   public:
    using detail::FrameHooks<promise_type>::FrameHooks;

    Process get_return_object() noexcept { return Process(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    std::suspend_never final_suspend() const noexcept { return {}; }
    void return_void() const noexcept {}
    void unhandled_exception() noexcept {
      if (failure_ != nullptr) {
        *failure_ = std::current_exception();
      } else {
        std::terminate();  // cannot happen: a frame only runs once spawned
      }
    }

   private:
    friend class Simulator;
    std::exception_ptr* failure_ = nullptr;  // the Simulator's slot for an escaped exception
  };

  Process(Process&& other) noexcept : frame_(std::exchange(other.frame_, {})) {}
  Process& operator=(Process&&) = delete;
  Process(const Process&) = delete;
  ~Process() {
    if (frame_) frame_.destroy();  // never spawned
  }

 private:
  friend class Simulator;
  explicit Process(std::coroutine_handle<promise_type> frame) noexcept : frame_(frame) {}
  std::coroutine_handle<promise_type> release() noexcept { return std::exchange(frame_, {}); }

  std::coroutine_handle<promise_type> frame_;
};

namespace detail {

// Where a task keeps its outcome until the awaiter takes it.
template <class T>
class TaskOutcome {
 public:
  template <class U>
  void return_value(U&& value) {
    value_.emplace(std::forward<U>(value));
  }
  void unhandled_exception() noexcept { failure_ = std::current_exception(); }
  T take() {
    if (failure_) std::rethrow_exception(failure_);
    return std::move(*value_);
  }

 private:
  std::optional<T> value_;
  std::exception_ptr failure_;
};

template <class T>
class TaskOutcome<T&> {
 public:
  void return_value(T& value) noexcept { value_ = &value; }
  void unhandled_exception() noexcept { failure_ = std::current_exception(); }
  T& take() {
    if (failure_) std::rethrow_exception(failure_);
    return *value_;
  }

 private:
  T* value_ = nullptr;
  std::exception_ptr failure_;
};

template <>
class TaskOutcome<void> {
 public:
  void return_void() noexcept {}
  void unhandled_exception() noexcept { failure_ = std::current_exception(); }
  void take() {
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  std::exception_ptr failure_;
};

}  // namespace detail

template <class T = void>
class [[nodiscard]] Task {
 public:
  class promise_type : public detail::TaskOutcome<T>, public detail::FrameHooks<promise_type> {
   public:
    using detail::FrameHooks<promise_type>::FrameHooks;

    Task get_return_object() noexcept { return Task(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() const noexcept { return {}; }

    // Back to the awaiter: by returning, if it is still inside its
    // await_suspend (we never waited); else by symmetric transfer.
    struct FinalAwaiter {
      bool await_ready() const noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> self) const noexcept {
        const promise_type& promise = self.promise();
        if (promise.started_inline_ || !promise.awaiter_) return std::noop_coroutine();
        return promise.awaiter_;
      }
      void await_resume() const noexcept {}
    };
    FinalAwaiter final_suspend() const noexcept { return {}; }

   private:
    friend class Task;
    std::coroutine_handle<> awaiter_;
    bool started_inline_ = false;  // true while the awaiter's await_suspend is running us
  };

  Task(Task&& other) noexcept : frame_(std::exchange(other.frame_, {})) {}
  Task& operator=(Task&&) = delete;
  Task(const Task&) = delete;
  ~Task() {
    if (frame_) frame_.destroy();
  }

  bool await_ready() const noexcept { return false; }
  // Runs the task up to its first wait or its end; suspends the awaiter
  // only in the first case.
  bool await_suspend(std::coroutine_handle<> awaiter) {
    promise_type& promise = frame_.promise();
    promise.awaiter_ = awaiter;
    promise.started_inline_ = true;
    frame_.resume();
    promise.started_inline_ = false;
    return !frame_.done();
  }
  T await_resume() { return frame_.promise().take(); }

 private:
  explicit Task(std::coroutine_handle<promise_type> frame) noexcept : frame_(frame) {}

  std::coroutine_handle<promise_type> frame_;
};

}  // namespace ckptsim::sim
