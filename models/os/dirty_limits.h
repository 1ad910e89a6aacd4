// models/os/dirty_limits.h
//
// How much dirty memory the kernel allows (mm/page-writeback.c:
// determine_dirtyable_memory / global_dirtyable_memory, global_dirty_limits,
// dirty_freerun_ceiling), recomputed at every use as the kernel does.
//
// Dirtyable memory X counts free pages and the file LRU; kernels before 3.14
// also count anon/shmem (shared_buffers) when swap exists (switch
// dirtyable_anon); 3.3+ first subtract the zones' high watermarks (switch
// dirty_balance_reserve). Then the background threshold B and the hard
// threshold T come from vm.dirty_background_* and vm.dirty_* (bytes win over
// ratios), with B halved to T/2 if it is not below T. The IO-less throttle's
// freerun point is (T + B) / 2.
//
// Left out: highmem (64-bit only), real-time tasks' +25 %, the
// per-cgroup / per-bdi domains of newer kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/os/os_config.h"
#include "sim/time.h"

namespace ckptsim::os {

inline constexpr sim::Bytes kPageBytes = 4 * sim::kKiB;

// The memory figures the thresholds read, in 4 kB pages.
struct MemoryPages {
  std::int64_t total = 0;  // RAM
  std::int64_t free = 0;
  std::int64_t file = 0;  // file LRU (the page cache, dirty included)
  std::int64_t anon = 0;  // anon + shmem (shared_buffers)
};

struct DirtyLimits {
  std::int64_t dirtyable = 0;   // X
  std::int64_t background = 0;  // B
  std::int64_t thresh = 0;      // T
  std::int64_t freerun() const { return (thresh + background) / 2; }
};

// min_free_kbytes = sqrt(16 x lowmem kB), clamped to [128 kB, 64 MB]; the
// high watermark is 1.5 x that.
inline std::int64_t high_watermark_pages(std::int64_t total_pages) {
  const double lowmem_kb = static_cast<double>(total_pages) * 4.0;
  const double min_free_kb = std::clamp(std::sqrt(16.0 * lowmem_kb), 128.0, 65536.0);
  return static_cast<std::int64_t>(min_free_kb * 1.5 / 4.0);
}

inline DirtyLimits global_dirty_limits(const OsConfig& c, const MemoryPages& m) {
  DirtyLimits out;
  std::int64_t free = m.free;
  if (c.dirty_balance_reserve) free = std::max<std::int64_t>(0, free - high_watermark_pages(m.total));
  out.dirtyable = free + m.file + (c.dirtyable_anon ? m.anon : 0);
  out.thresh = c.dirty_bytes > 0 ? c.dirty_bytes / kPageBytes : c.dirty_ratio * out.dirtyable / 100;
  out.background = c.dirty_background_bytes > 0 ? c.dirty_background_bytes / kPageBytes
                                                : c.dirty_background_ratio * out.dirtyable / 100;
  if (out.background >= out.thresh) out.background = out.thresh / 2;
  return out;
}

}  // namespace ckptsim::os
