// models/os/dirty_throttle.cpp
//
// Writer throttling: balance_dirty_pages (mm/page-writeback.c), two
// generations, one strategy class each, chosen by os.throttle.
//
// "io-less" (3.2+): below the freerun point F = (T + B) / 2 a writer runs
// free and checks again after about sqrt(F - D) pages. Above it, it never
// writes anything itself: it kicks background writeback and sleeps long
// enough that its dirtying rate matches its share of the device's write
// bandwidth times a position ratio, a cubic of D around the setpoint
// S = (F + L) / 2 (2 at F, 1 at S, 0 at the limit L) times the device term
// (Xi - D) / (Xi - S), Xi = S + 8 s of write bandwidth, floored at 1/4.
// Pauses are at most 200 ms (and about dirty / (8 x bandwidth)); at L the
// rate is 0 and the writer sleeps max_pause at a time until writeback
// brings D below L. The base rate is the shortcut of the reference:
// write bandwidth / number of tasks that dirtied pages in the last 200 ms.
//
// "writer-writeback" (<= 3.1): every ratelimit_pages (8 while the device is
// over its limit) the writer checks; above its task threshold (T less up to
// T/8 for a heavy dirtier) it writes back up to
// 1.5 x ratelimit pages of the oldest dirty inodes itself (async class,
// possibly other files than its own), sleeping 4 ms, 8 ms ... 100 ms while
// that was not enough; it also sleeps in request allocation.
//
// Left out: per-bdi shares of T and B (one device's share is all of it; with
// a separate WAL device both compare global figures), the dirty_ratelimit
// feedback loop, think-time credit beyond one period.
#include "models/os/dirty_throttle.h"

#include <algorithm>
#include <cmath>

namespace ckptsim::os {

namespace {
constexpr sim::Duration kMaxPause = 200 * sim::kMillisecond;  // MAX_PAUSE = HZ/5
constexpr sim::Duration kJiffy = 4 * sim::kMillisecond;       // HZ = 250
constexpr sim::Duration kDirtierWindow = 200 * sim::kMillisecond;

class IoLessThrottle final : public DirtyThrottle {
 public:
  using DirtyThrottle::DirtyThrottle;
  sim::Task<> balance_dirty_pages(OsTask& task, BdiWriteback& bdi) override;

 private:
  double update_dirty_limit(const DirtyLimits& limits);
};

class WriterWritebackThrottle final : public DirtyThrottle {
 public:
  WriterWritebackThrottle(sim::Simulator& sim, const OsConfig& config, const Memory& memory, const PageCache& cache)
      : DirtyThrottle(sim, config, memory, cache), ratelimit_pages_(ratelimit_pages(memory.ram)) {}
  sim::Task<> balance_dirty_pages(OsTask& task, BdiWriteback& bdi) override;

 private:
  // ratelimit_pages (3.0): total / (ncpu x 32), clamped to [16, 1024]; 8 CPUs assumed.
  static std::int64_t ratelimit_pages(sim::Bytes ram) {
    return std::clamp<std::int64_t>(ram / kPageBytes / (8 * 32), 16, 1024);
  }
  const std::int64_t ratelimit_pages_;  // RAM does not change: computed once
};

}  // namespace

// The limit starts at the threshold of an empty page cache.
DirtyThrottle::DirtyThrottle(sim::Simulator& sim, const OsConfig& config, const Memory& memory, const PageCache& cache)
    : sim_(sim), global_dirty_limit_(0), config_(config), memory_(memory), cache_(cache), initial_dirty_limit_(0) {
  global_dirty_limit_ = initial_dirty_limit_ = static_cast<double>(limits().thresh);
}

MemoryPages DirtyThrottle::memory_pages() const {
  MemoryPages m;
  m.total = memory_.ram / kPageBytes;
  m.free = cache_.free() * kPagesPerBlock;
  m.file = cache_.cached() * kPagesPerBlock;
  m.anon = memory_.shared_memory / kPageBytes;
  return m;
}

bool DirtyThrottle::over_bground_thresh() const { return dirty_pages() > limits().background; }

bool DirtyThrottle::dirtied(const OsTask& task, std::int64_t pages) {
  DirtierState& ts = dirtier(task);
  ts.nr_dirtied += pages;
  if (pages > 0) ts.last_dirtied = sim_.now();
  return ts.nr_dirtied >= ts.nr_dirtied_pause;
}

int DirtyThrottle::recent_dirtiers() const {
  int n = 0;
  for (const DirtierState& other : dirtiers_) n += sim_.now() - other.last_dirtied <= kDirtierWindow;
  return n;
}

sim::Task<> DirtyThrottle::sleep_throttled(sim::Duration pause) {
  ++pauses_;
  max_pause_ = std::max(max_pause_, pause);
  paused_ += pause;
  co_await sim_.sleep(pause);
}

std::unique_ptr<DirtyThrottle> make_dirty_throttle(sim::Simulator& sim, const OsConfig& config, const Memory& memory,
                                                   const PageCache& cache) {
  switch (config.throttle) {
    case Throttle::WriterWriteback: return std::make_unique<WriterWritebackThrottle>(sim, config, memory, cache);
    case Throttle::IoLess: break;
  }
  return std::make_unique<IoLessThrottle>(sim, config, memory, cache);
}

// The smoothed limit: follows T up at once, down by 1/32 of the gap per update.
double IoLessThrottle::update_dirty_limit(const DirtyLimits& limits) {
  const auto thresh = static_cast<double>(limits.thresh);
  if (thresh >= global_dirty_limit_) {
    global_dirty_limit_ = thresh;
  } else {
    global_dirty_limit_ -= (global_dirty_limit_ - thresh) / 32;
  }
  return global_dirty_limit_;
}

sim::Task<> IoLessThrottle::balance_dirty_pages(OsTask& task, BdiWriteback& bdi) {
  const sim::Time start_time = sim_.now();
  DirtierState& ts = dirtier(task);
  for (;;) {
    const DirtyLimits limits = this->limits();
    const double limit = update_dirty_limit(limits);
    const auto dirty = static_cast<double>(dirty_pages() + writeback_pages());
    const auto freerun = static_cast<double>(limits.freerun());
    if (dirty <= freerun) {
      // dirty_poll_interval: about sqrt of the headroom.
      const double headroom = std::max(freerun - dirty, 1.0);
      ts.nr_dirtied_pause = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::sqrt(headroom)));
      ts.nr_dirtied = 0;
      ts.dirty_paused_when = sim_.now();
      dirty_exceeded_ = false;
      co_return;
    }
    if (!bdi.busy()) bdi.wake_background();
    bdi.update_bandwidth(start_time);
    const double bw_pages = bdi.write_bw() * static_cast<double>(kPagesPerBlock);
    const double setpoint = (freerun + limit) / 2;
    double pos_ratio = 0;
    if (dirty < limit) {
      const double x = (setpoint - dirty) / std::max(limit - setpoint, 1.0);
      pos_ratio = std::clamp(1 + x * x * x, 0.0, 2.0);
      const double intercept = setpoint + 8 * bw_pages;
      pos_ratio *= std::max(0.25, (intercept - dirty) / (intercept - setpoint));
    }
    dirty_exceeded_ = dirty > static_cast<double>(limits.thresh);
    const int dirtiers = recent_dirtiers();
    const double base_rate = bw_pages / std::max(dirtiers, 1);
    const double task_rate = base_rate * pos_ratio;  // pages per second
    sim::Duration max_pause = static_cast<sim::Duration>(dirty / (8 * std::max(bw_pages, 1.0)) * sim::kSecond) + kJiffy;
    max_pause = std::min(max_pause, kMaxPause);
    sim::Duration pause;
    if (task_rate <= 0) {
      pause = max_pause;
    } else {
      const auto period = static_cast<sim::Duration>(static_cast<double>(ts.nr_dirtied) / task_rate * sim::kSecond);
      pause = period - (sim_.now() - ts.dirty_paused_when);  // think time counts as paused
      if (pause <= 0) {
        ts.dirty_paused_when = pause < -sim::kSecond ? sim_.now() : ts.dirty_paused_when + period;
        ts.nr_dirtied = 0;
        ts.nr_dirtied_pause =
            dirty_exceeded_ ? 8 : std::max<std::int64_t>(1, static_cast<std::int64_t>(task_rate * 0.01));
        co_return;
      }
      pause = std::min(pause, max_pause);
    }
    co_await sleep_throttled(pause);
    ts.dirty_paused_when = sim_.now();
    ts.nr_dirtied = 0;
    if (task_rate > 0) {
      // About 10-200 ms worth of the allowed rate before the next check; 8 pages over the limit.
      ts.nr_dirtied_pause =
          dirty_exceeded_
              ? 8
              : std::max<std::int64_t>(1, static_cast<std::int64_t>(task_rate * sim::to_seconds(max_pause) / 2));
      co_return;
    }
  }
}

sim::Task<> WriterWritebackThrottle::balance_dirty_pages(OsTask& task, BdiWriteback& bdi) {
  DirtierState& ts = dirtier(task);
  const std::int64_t ratelimit = ratelimit_pages_;
  if (ts.nr_dirtied < (dirty_exceeded_ ? 8 : ratelimit)) {
    ts.nr_dirtied_pause = dirty_exceeded_ ? 8 : ratelimit;
    co_return;
  }
  ts.nr_dirtied = 0;
  ts.nr_dirtied_pause = ratelimit;
  const std::int64_t write_chunk = ratelimit * 3 / 2;  // pages
  sim::Duration pause = kJiffy;
  std::int64_t written = 0;
  for (;;) {
    const DirtyLimits limits = this->limits();
    const std::int64_t dirty = dirty_pages() + writeback_pages();
    // task_dirty_limit: a heavy dirtier's threshold is lowered by up to T/8,
    // by its share of recent dirtying (1 / number of dirtiers here).
    const int dirtiers = recent_dirtiers();
    const std::int64_t task_thresh = limits.thresh - limits.thresh / (8 * std::max(dirtiers, 1));
    if (dirty <= limits.freerun() || dirty <= task_thresh) {
      dirty_exceeded_ = false;
      break;
    }
    dirty_exceeded_ = true;
    ts.nr_dirtied_pause = 8;
    if (dirty_pages() > task_thresh && written < write_chunk) {  // bdi_nr_reclaimable > task_bdi_thresh
      // The writer writes back the oldest dirty inodes itself.
      written += kPagesPerBlock * co_await bdi.writeback_inodes((write_chunk - written) / kPagesPerBlock + 1,
                                                                sim_.now(), WbReason::Throttle, task.pid, sim_.now());
      if (written >= write_chunk) break;
    }
    co_await sleep_throttled(pause);
    pause = std::min(2 * pause, 100 * sim::kMillisecond);
  }
  if (over_bground_thresh() && !bdi.busy()) bdi.wake_background();
}

}  // namespace ckptsim::os
