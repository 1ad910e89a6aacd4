// models/disk/hdd.cpp
#include "models/disk/hdd.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "sim/random.h"

namespace ckptsim::disk {

namespace {
constexpr sim::Time kNever = std::numeric_limits<sim::Time>::max();
// Waits shorter than this share of a revolution are rounding, not a missed
// sector: the head is already there.
constexpr double kOnTime = 1e-5;
double frac(double x) { return x - std::floor(x); }
}  // namespace

Hdd::Hdd(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed, std::string_view name)
    : sim_(sim),
      config_(config),
      geometry_(config),
      seek_(config.seek_single, config.seek_average, config.seek_full, config.cylinders),
      cache_(config.write_cache_size, config.write_cache_extents),
      completions_(sim, [this](Command& c) { finished(c); }),
      mechanism_(sim, [this] {
        if (busy_) mechanism_done();
        else schedule();
      }) {
  info_.queue_depth = static_cast<int>(config.queue_depth);
  info_.queued_flush = config.interface != Interface::Sata;
  info_.volatile_cache = config.write_cache;
  info_.rotational = true;
  info_.capacity_bytes = config.capacity;
  // Where the spindle and the arm are when the run starts.
  sim::Random random(seed, std::string(name) + "/spindle");
  phase_ = random.uniform01();
  const std::int64_t start_sector = random.uniform_int(0, config.capacity / kSectorBytes - 1);
  const auto start = geometry_.locate(start_sector * kSectorBytes);
  head_track_ = start.track;
  head_cylinder_ = start.cylinder;
  head_sector_ = start_sector;
  window_scratch_.reserve(cache_.extents().size());
}

Hdd::~Hdd() {
  queue_.clear();
  cache_waiters_.clear();
  flushes_.clear();
}

bool Hdd::can_accept(Op op) const {
  if (blocking_flush_) return false;
  if (op == Op::Flush && !info_.queued_flush) return outstanding_ == 0;
  return outstanding_ < info_.queue_depth;
}

sim::Time Hdd::link_transfer(std::int64_t bytes) {
  const sim::Time start = std::max(sim_.now(), link_free_);
  const double ns = static_cast<double>(bytes) * sim::kSecond / static_cast<double>(config_.link_rate);
  link_free_ = start + config_.command_overhead + config_.command_setup + std::llround(ns);
  return link_free_;
}

void Hdd::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("hdd: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  switch (c.op) {
    case Op::Read:
      // Data already in the buffer (read-ahead or dirty) goes out at link speed.
      if ((ra_sector_ >= 0 && c.sector >= ra_sector_ && c.end_sector() <= ra_limit_ &&
           readahead_reached(c.end_sector()) <= std::min(sim_.now(), ra_stop_)) ||
          (config_.write_cache && cache_.covers(c.sector, c.bytes))) {
        complete_at(c, link_transfer(c.bytes));
        return;
      }
      queue_.push_back(c);
      break;
    case Op::Write:
      // A write larger than half the dirty space bypasses the cache rather
      // than waiting for room it may never get.
      if (config_.write_cache && !c.fua && c.bytes * 2 <= cache_.max_bytes()) {
        if (cache_waiters_.empty() && cache_.admit(c.sector, c.bytes, write_seq_ + 1)) {
          ++write_seq_;
          complete_at(c, link_transfer(c.bytes));
          schedule();  // an idle mechanism starts destaging
          return;
        }
        cache_waiters_.push_back(c);  // holds its tag until destaging makes room
      } else {
        queue_.push_back(c);
      }
      break;
    case Op::Flush:
      if (!info_.queued_flush) blocking_flush_ = true;
      if (config_.write_cache && cache_.holds_up_to(write_seq_)) {
        c.device_tag = write_seq_;
        flushes_.push_back(c);
      } else {
        complete_at(c, sim_.now() + config_.command_overhead + config_.command_setup);
        return;
      }
      break;
  }
  schedule();
}

sim::Duration Hdd::rotational_wait(std::int64_t byte, sim::Time t) const {
  const double angle = geometry_.locate(byte).angle;
  const double under_head = frac(static_cast<double>(t) / geometry_.revolution() + phase_);
  double wait = frac(angle - under_head);
  if (wait > 1 - kOnTime) wait = 0;
  return std::llround(wait * geometry_.revolution());
}

sim::Duration Hdd::positioning_time(std::int64_t sector, bool write, sim::Time t) const {
  const auto target = geometry_.locate(sector * kSectorBytes);
  sim::Duration move = 0;
  if (target.cylinder != head_cylinder_) {
    // The arm moves and the head is switched at the same time.
    move = std::max(seek_(std::abs(target.cylinder - head_cylinder_)), config_.head_switch);
  } else if (target.track != head_track_) {
    move = config_.head_switch;
  }
  // A write settles the head after the arm or the head has moved; on the same track it is already on track.
  if (write && move > 0) move += config_.write_settle;
  return move + rotational_wait(sector * kSectorBytes, t + move);
}

sim::Time Hdd::readahead_reached(std::int64_t sector) const {
  const double bytes = static_cast<double>((sector - ra_sector_) * kSectorBytes);
  return ra_time_ + std::llround(bytes / ra_rate_);
}

bool Hdd::streaming_covers(const Command& c) const {
  if (c.op != Op::Read || ra_sector_ < 0 || c.sector < ra_sector_ || c.end_sector() > ra_limit_) return false;
  return ra_stop_ == kNever || readahead_reached(c.end_sector()) <= ra_stop_;
}

void Hdd::schedule() {
  if (busy_) return;
  const sim::Time now = sim_.now();
  const sim::Time ready = now + config_.command_setup;  // when the mechanism can start positioning
  const bool can_destage = cache_.idle_extents() > 0;
  const bool must_destage = can_destage && (!cache_waiters_.empty() || !flushes_.empty() || cache_.full());
  const bool half_full = cache_.dirty_bytes() * 2 >= cache_.max_bytes();

  Choice host;
  bool aged = false;
  sim::Time next_eligible = kNever;
  for (Command& c : queue_) {
    const sim::Time eligible = c.device_start + config_.command_overhead;
    if (eligible > now) {
      next_eligible = std::min(next_eligible, eligible);
      continue;
    }
    if (now - c.device_start >= config_.aging) {  // the oldest eligible command, as queue_ is in arrival order
      host = Choice{&c, -1, positioning_time(c.sector, c.op == Op::Write, ready)};
      aged = true;
      break;
    }
    const sim::Duration cost = streaming_covers(c) ? 0 : positioning_time(c.sector, c.op == Op::Write, ready);
    if (host.command == nullptr || cost < host.positioning) host = Choice{&c, -1, cost};
  }

  const Choice destage =
      can_destage && !aged && (must_destage || half_full || host.command == nullptr) ? pick_destage(ready) : Choice{};

  if (host.command != nullptr && (aged || destage.extent < 0 ||
                                  (!must_destage && (!half_full || host.positioning <= destage.positioning)))) {
    start_host(*host.command, host.positioning);
  } else if (destage.extent >= 0) {
    start_destage(destage.extent, destage.positioning);
  } else if (next_eligible != kNever) {
    mechanism_.schedule_at(next_eligible);
  }
}

Hdd::Choice Hdd::pick_destage(sim::Time ready) {
  const auto& extents = cache_.extents();
  const std::uint64_t limit = window_limit();
  Choice best;
  std::int64_t best_key = 0;
  for (int i = 0; i < static_cast<int>(extents.size()); ++i) {
    const auto& e = extents[static_cast<std::size_t>(i)];
    if (!e.used || e.destaging || e.born > limit) continue;
    std::int64_t key = 0;
    switch (config_.destage_order) {
      case DestageOrder::Positioning:
        key = positioning_time(e.sector, true, ready);
        break;
      case DestageOrder::Lba:  // C-LOOK: LBAs behind the head come after the end of the disk
        key = e.sector >= head_sector_ ? e.sector : e.sector + info_.capacity_bytes / kSectorBytes;
        break;
      case DestageOrder::Fifo:
        key = static_cast<std::int64_t>(e.born);
        break;
    }
    if (best.extent < 0 || key < best_key) {
      best = Choice{nullptr, i, 0};
      best_key = key;
    }
  }
  if (best.extent >= 0) {
    best.positioning = config_.destage_order == DestageOrder::Positioning
                           ? best_key
                           : positioning_time(extents[static_cast<std::size_t>(best.extent)].sector, true, ready);
  }
  return best;
}

std::uint64_t Hdd::window_limit() {
  const auto window = static_cast<std::size_t>(config_.destage_window);
  if (window == 0 || window >= static_cast<std::size_t>(cache_.idle_extents())) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  window_scratch_.clear();
  for (const auto& e : cache_.extents()) {
    if (e.used && !e.destaging) window_scratch_.push_back(e.born);
  }
  const auto nth = window_scratch_.begin() + static_cast<std::ptrdiff_t>(window - 1);
  std::nth_element(window_scratch_.begin(), nth, window_scratch_.end());
  return *nth;
}

void Hdd::start_host(Command& c, sim::Duration positioning) {
  queue_.erase(queue_.iterator_to(c));
  const sim::Time now = sim_.now();
  const sim::Time ready = now + config_.command_setup;
  busy_ = true;
  if (streaming_covers(c)) {
    // The head is already reading this data: no seek, no rotation.
    const sim::Time end = std::max(ready, readahead_reached(c.end_sector()));
    ra_limit_ = std::max(ra_limit_, c.end_sector() + config_.read_segment / kSectorBytes);
    complete_at(c, end);
    mechanism_.schedule_at(end);
    return;
  }
  if (ra_stop_ > now) ra_stop_ = now;  // the stream ends where the head leaves it
  const std::int64_t byte = c.sector * kSectorBytes;
  if (c.op == Op::Write && c.sector < ra_limit_ && c.end_sector() > ra_sector_) ra_sector_ = -1;
  const sim::Time end = ready + positioning + geometry_.transfer_time(byte, c.bytes);
  const auto last = geometry_.locate(byte + c.bytes - 1);
  head_track_ = last.track;
  head_cylinder_ = last.cylinder;
  head_sector_ = c.end_sector();
  if (c.op == Op::Read) {
    ra_sector_ = c.end_sector();
    ra_limit_ = ra_sector_ + config_.read_segment / kSectorBytes;
    ra_time_ = end;
    ra_stop_ = kNever;
    ra_rate_ = geometry_.sustained_rate(byte) / sim::kSecond;
  }
  complete_at(c, end);
  mechanism_.schedule_at(end);
}

void Hdd::start_destage(int index, sim::Duration positioning) {
  const sim::Time now = sim_.now();
  if (ra_stop_ > now) ra_stop_ = now;
  const auto& e = cache_.extents()[static_cast<std::size_t>(index)];
  if (e.sector < ra_limit_ && e.sector + e.bytes / kSectorBytes > ra_sector_) ra_sector_ = -1;
  const std::int64_t byte = e.sector * kSectorBytes;
  const sim::Time end = now + config_.command_setup + positioning + geometry_.transfer_time(byte, e.bytes);
  const auto last = geometry_.locate(byte + e.bytes - 1);
  head_track_ = last.track;
  head_cylinder_ = last.cylinder;
  head_sector_ = e.sector + e.bytes / kSectorBytes;
  cache_.mark_destaging(index);
  destage_extent_ = index;
  busy_ = true;
  mechanism_.schedule_at(end);
}

void Hdd::mechanism_done() {
  busy_ = false;
  if (destage_extent_ >= 0) {
    cache_.finish_destage(destage_extent_);
    destage_extent_ = -1;
    admit_waiting_writes();
    check_flushes();
  }
  schedule();
}

void Hdd::admit_waiting_writes() {
  while (!cache_waiters_.empty()) {
    Command& c = cache_waiters_.front();
    if (!cache_.admit(c.sector, c.bytes, write_seq_ + 1)) break;
    ++write_seq_;
    cache_waiters_.pop_front();
    complete_at(c, link_transfer(c.bytes));
  }
}

void Hdd::check_flushes() {
  while (!flushes_.empty() && !cache_.holds_up_to(flushes_.front().device_tag)) {
    Command& c = flushes_.front();
    flushes_.pop_front();
    complete_at(c, sim_.now());
  }
}

void Hdd::finished(Command& c) {
  --outstanding_;
  if (c.op == Op::Flush && !info_.queued_flush) blocking_flush_ = false;
  c.owner->command_completed(c);
}

void Hdd::volatile_ranges(std::vector<SectorRange>& out) const {
  for (const HddWriteCache::Extent& e : cache_.extents()) {
    if (e.used) out.push_back({e.sector, e.bytes / kSectorBytes});
  }
}

}  // namespace ckptsim::disk
