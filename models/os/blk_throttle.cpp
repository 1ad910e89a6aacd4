// models/os/blk_throttle.cpp
//
// blk-throttle's slice arithmetic and FIFO dispatch (block/blk-throttle.c,
// 6.17: tg_update_slice, throtl_trim_slice, tg_within_iops_limit,
// tg_within_bps_limit, tg_dispatch_time, __blk_throtl_bio,
// throtl_pending_timer_fn, blk_throtl_dispatch_work_fn). Times in jiffies.
#include "models/os/blk_throttle.h"

#include <algorithm>

#include "models/os/plug.h"

namespace ckptsim::os {

namespace {
std::int64_t roundup(std::int64_t x, std::int64_t step) { return (x + step - 1) / step * step; }
std::int64_t rounddown(std::int64_t x, std::int64_t step) { return x / step * step; }
}  // namespace

BlkThrottle::BlkThrottle(sim::Simulator& sim, const BlkThrottleConfig& config, std::unique_ptr<BlockDevice> lower)
    : BlkThrottle(sim, config, *lower) {
  owned_ = std::move(lower);
}

BlkThrottle::BlkThrottle(sim::Simulator& sim, const BlkThrottleConfig& config, BlockDevice& lower)
    : sim_(sim), lower_(&lower), pending_timer_(sim, [this] { dispatch(); }), kthrotld_wakeup_(sim) {
  dirs_[kRead].iops = config.read_iops;
  dirs_[kRead].bps = config.read_bps;
  dirs_[kWrite].iops = config.write_iops;
  dirs_[kWrite].bps = config.write_bps;
  for (Direction& d : dirs_) start_new_slice(d);
  sim_.spawn(kthrotld());
}

BlkThrottle::~BlkThrottle() = default;

// ---- the slice ----

// throtl_slice_used: now is outside [slice_start, slice_end].
bool BlkThrottle::slice_used(const Direction& d) const {
  const std::int64_t now = jiffies();
  return now < d.slice_start || now > d.slice_end;
}

void BlkThrottle::start_new_slice(Direction& d) {
  d.io_disp = 0;
  d.bytes_disp = 0;
  d.slice_start = jiffies();
  d.slice_end = d.slice_start + kThrottleSliceJiffies;
}

// throtl_extend_slice: the end, rounded up to a slice on the absolute clock.
void BlkThrottle::extend_slice(Direction& d, std::int64_t target) {
  d.slice_end = std::max(d.slice_end, roundup(target, kThrottleSliceJiffies));
}

// throtl_trim_slice: keep one slice of history; what the limit allowed
// before it and was not used is dropped, not carried.
void BlkThrottle::trim_slice(Direction& d) {
  if (slice_used(d)) return;
  const std::int64_t now = jiffies();
  d.slice_end = roundup(now + kThrottleSliceJiffies, kThrottleSliceJiffies);
  std::int64_t elapsed = rounddown(now - d.slice_start, kThrottleSliceJiffies);
  if (elapsed < 2 * kThrottleSliceJiffies) return;
  elapsed -= kThrottleSliceJiffies;
  if (d.iops > 0) d.io_disp = std::max<std::int64_t>(0, d.io_disp - d.iops * elapsed / kHz);
  if (d.bps > 0) d.bytes_disp = std::max<std::int64_t>(0, d.bytes_disp - d.bps * elapsed / kHz);
  d.slice_start += elapsed;
}

// ---- how long the head waits ----

std::int64_t BlkThrottle::iops_wait(const Direction& d) const {
  if (d.iops <= 0) return 0;
  const std::int64_t elapsed = jiffies() - d.slice_start;
  const std::int64_t window = roundup(elapsed + 1, kThrottleSliceJiffies);
  const std::int64_t allowed = d.iops * window / kHz;
  if (allowed > 0 && d.io_disp + 1 <= allowed) return 0;
  // at least long enough for one IO at the limit
  return std::max(window - elapsed, kHz / d.iops + 1);
}

std::int64_t BlkThrottle::bytes_wait(const Direction& d, std::int64_t bytes) const {
  if (d.bps <= 0) return 0;
  const std::int64_t elapsed = jiffies() - d.slice_start;
  const std::int64_t window = roundup(elapsed == 0 ? kThrottleSliceJiffies : elapsed, kThrottleSliceJiffies);
  const std::int64_t allowed = d.bps * window / kHz;
  if (d.bytes_disp + bytes <= allowed) return 0;
  const std::int64_t extra = d.bytes_disp + bytes - allowed;
  return std::max<std::int64_t>(1, extra * kHz / d.bps) + (window - elapsed);
}

std::int64_t BlkThrottle::dispatch_time(Direction& d, Queued& q) {
  // tg_update_slice
  if (slice_used(d) && d.fifo.empty()) {
    start_new_slice(d);
  } else {
    extend_slice(d, jiffies() + kThrottleSliceJiffies);
  }
  std::int64_t wait = q.bytes_charged ? 0 : bytes_wait(d, q.bytes);
  if (wait == 0) {
    // throtl_charge_bps_bio: the bytes are paid once, then the bio waits for an IO slot.
    if (!q.bytes_charged && d.bps > 0) d.bytes_disp += q.bytes;
    q.bytes_charged = true;
    wait = iops_wait(d);
  }
  if (wait > 0) extend_slice(d, jiffies() + wait);
  return wait;
}

void BlkThrottle::charge(Direction& d, Queued& q, std::int32_t ios) {
  if (!q.bytes_charged && d.bps > 0) d.bytes_disp += q.bytes;
  q.bytes_charged = true;
  d.io_disp += ios;
  stats_.charged_ios += ios;
  stats_.charged_bytes += q.bytes;
}

// ---- entry ----

sim::Task<> BlkThrottle::submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers) {
  Direction& d = dirs_[bio.op == disk::Op::Read ? kRead : kWrite];
  if (!d.limited()) {
    co_await lower_->submit_bio(bio, plug, layers);
    co_return;
  }
  Queued q{.bio = &bio, .bytes = bio.bytes};
  if (bio.meta) {  // charged, never held: later bios pay its debt
    charge(d, q, bio.nr_bios);
    trim_slice(d);
    co_await lower_->submit_bio(bio, plug, layers);
    co_return;
  }
  if (d.fifo.empty() && dispatch_time(d, q) == 0) {
    charge(d, q, bio.nr_bios);
    trim_slice(d);
    co_await lower_->submit_bio(bio, plug, layers);
    co_return;
  }
  enqueue(d, q);
}

sim::Task<> BlkThrottle::flush_cache() {
  Direction& d = dirs_[kWrite];
  if (d.limited()) {
    Queued q{.bytes = 0};
    if (d.fifo.empty() && dispatch_time(d, q) == 0) {
      charge(d, q, 1);
      trim_slice(d);
    } else {
      sim::Event released(sim_);
      q.released = &released;
      enqueue(d, q);
      co_await released;
    }
  }
  co_await lower_->flush_cache();
}

void BlkThrottle::enqueue(Direction& d, Queued q) {
  d.fifo.push_back(q);
  count_queued(+1);
  if (d.fifo.size() == 1) arm_timer();
}

// ---- release ----

void BlkThrottle::arm_timer() {
  std::int64_t next = -1;
  for (Direction& d : dirs_) {
    if (d.fifo.empty()) continue;
    const std::int64_t at = jiffies() + dispatch_time(d, d.fifo.front());
    next = next < 0 ? at : std::min(next, at);
  }
  if (next >= 0) pending_timer_.schedule_at(next * kJiffy);
}

void BlkThrottle::dispatch() {
  bool any = false;
  for (Direction& d : dirs_) {
    while (!d.fifo.empty() && dispatch_time(d, d.fifo.front()) == 0) {
      Queued q = d.fifo.front();
      charge(d, q, q.bio != nullptr ? q.bio->nr_bios : 1);
      d.fifo.pop_front();
      count_queued(-1);
      trim_slice(d);
      released_.push_back(q);
      any = true;
    }
  }
  if (any) kthrotld_wakeup_.set();
  arm_timer();
}

// blk_throtl_dispatch_work_fn: everything released, in order, under one plug.
// A sleep below (a full request pool) holds up the bios behind it here.
sim::Process BlkThrottle::kthrotld() {
  for (;;) {
    co_await kthrotld_wakeup_;
    kthrotld_wakeup_.reset();
    Plug plug;
    while (!released_.empty()) {
      Queued q = released_.front();
      released_.pop_front();
      if (q.bio == nullptr) {
        q.released->set();
      } else {
        co_await lower_->submit_bio(*q.bio, &plug, nullptr);
      }
    }
    lower_->unplug(plug);
  }
}

// ---- what system.csv shows ----

void BlkThrottle::count_queued(std::int64_t delta) {
  stats_.waited += stats_.queued * (sim_.now() - queued_since_);
  queued_since_ = sim_.now();
  stats_.queued += delta;
}

BlkThrottleStats BlkThrottle::stats_now() const {
  BlkThrottleStats s = stats_;
  s.waited += s.queued * (sim_.now() - queued_since_);
  return s;
}

}  // namespace ckptsim::os
