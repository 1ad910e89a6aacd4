// sim/frame_pool.h
//
// Where coroutine frames live. Every Task a model awaits (a page read, a
// WAL flush) makes a frame, and malloc/free of those frames was 6% of an
// I/O-heavy run's time (perf, E1 small). Frames come in few sizes and die
// young, so each thread keeps a free list per 64-byte size class and reuses
// them: after the first transactions, making a frame is a pop and freeing
// one a push. Frames above 2 kB go to the global allocator.
//
// Memory kept on a free list is not given back before the thread ends; it
// is at most the largest number of frames alive at once, per size class.
#pragma once

#include <array>
#include <cstddef>
#include <new>

namespace ckptsim::sim {

class FramePool {
 public:
  static constexpr std::size_t kGranule = 64;
  static constexpr std::size_t kClasses = 32;  // up to 2 kB

  static void* allocate(std::size_t n) {
    const std::size_t c = size_class(n);
    if (c >= kClasses) return ::operator new(n);
    FramePool& pool = local();
    if (Free* f = pool.free_[c]) {
      pool.free_[c] = f->next;
      return f;
    }
    return ::operator new((c + 1) * kGranule);
  }

  static void release(void* p, std::size_t n) noexcept {
    const std::size_t c = size_class(n);
    if (c >= kClasses) {
      ::operator delete(p);
      return;
    }
    FramePool& pool = local();
    pool.free_[c] = new (p) Free{pool.free_[c]};
  }

  FramePool() = default;
  FramePool(const FramePool&) = delete;
  FramePool& operator=(const FramePool&) = delete;
  ~FramePool() {
    for (Free* head : free_) {
      while (head != nullptr) {
        Free* next = head->next;
        ::operator delete(head);
        head = next;
      }
    }
  }

 private:
  struct Free {
    Free* next;
  };
  static std::size_t size_class(std::size_t n) noexcept { return n == 0 ? 0 : (n - 1) / kGranule; }
  static FramePool& local() {
    static thread_local FramePool pool;
    return pool;
  }

  std::array<Free*, kClasses> free_{};
};

}  // namespace ckptsim::sim
