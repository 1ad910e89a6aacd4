// models/disk/hdd.cpp
#include "models/disk/hdd.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ckptsim::disk {

Hdd::Hdd(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed, std::string_view name)
    : sim_(sim),
      config_(config),
      geometry_(config_),
      head_(config_, geometry_, seed, name),
      cache_(config.hdd.write_cache_size, config.hdd.write_cache_extents),
      destage_(config_, cache_, head_),
      completions_(sim, [this](Command& c) { finished(c); }),
      mechanism_(sim, [this] {
        if (busy_) mechanism_done();
        else schedule();
      }) {
  info_.queue_depth = static_cast<int>(config.queue_depth);
  info_.queued_flush = config.interface != Interface::Sata;
  info_.volatile_cache = config.hdd.write_cache;
  info_.rotational = true;
  info_.capacity_bytes = config.capacity;
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
  link_free_ = start + config_.hdd.command_overhead + config_.hdd.command_setup + std::llround(ns);
  return link_free_;
}

void Hdd::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("hdd: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  switch (c.op) {
    case Op::Read:
      // Data already in the buffer (read-ahead or dirty) goes out at link speed.
      if (readahead_.holds(c, sim_.now()) || (config_.hdd.write_cache && cache_.covers(c.sector, c.bytes))) {
        completions_.complete_at(c, link_transfer(c.bytes));
        return;
      }
      queue_.push_back(c);
      break;
    case Op::Write:
      // A write larger than half the dirty space bypasses the cache rather
      // than waiting for room it may never get.
      if (config_.hdd.write_cache && !c.fua && c.bytes * 2 <= cache_.max_bytes()) {
        if (cache_waiters_.empty() && cache_.admit(c.sector, c.bytes, write_seq_ + 1)) {
          ++write_seq_;
          completions_.complete_at(c, link_transfer(c.bytes));
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
      if (config_.hdd.write_cache && cache_.holds_up_to(write_seq_)) {
        c.device_tag = write_seq_;
        flushes_.push_back(c);
      } else {
        completions_.complete_at(c, sim_.now() + config_.hdd.command_overhead + config_.hdd.command_setup);
        return;
      }
      break;
  }
  schedule();
}

void Hdd::schedule() {
  if (busy_) return;
  const sim::Time now = sim_.now();
  const sim::Time ready = now + config_.hdd.command_setup;  // when the mechanism can start positioning
  const bool can_destage = cache_.idle_extents() > 0;
  const bool must_destage = can_destage && (!cache_waiters_.empty() || !flushes_.empty() || cache_.full());
  const bool half_full = cache_.dirty_bytes() * 2 >= cache_.max_bytes();

  Choice host;
  bool aged = false;
  sim::Time next_eligible = kNever;
  for (Command& c : queue_) {
    const sim::Time eligible = c.device_start + config_.hdd.command_overhead;
    if (eligible > now) {
      next_eligible = std::min(next_eligible, eligible);
      continue;
    }
    if (now - c.device_start >= config_.hdd.aging) {  // the oldest eligible command, as queue_ is in arrival order
      host = Choice{&c, head_.positioning_time(c.sector, c.op == Op::Write, ready)};
      aged = true;
      break;
    }
    const sim::Duration cost = readahead_.covers(c) ? 0 : head_.positioning_time(c.sector, c.op == Op::Write, ready);
    if (host.command == nullptr || cost < host.positioning) host = Choice{&c, cost};
  }

  const HddDestage::Pick destage = can_destage && !aged && (must_destage || half_full || host.command == nullptr)
                                       ? destage_.next(ready)
                                       : HddDestage::Pick{};

  if (host.command != nullptr &&
      (aged || destage.extent < 0 || (!must_destage && (!half_full || host.positioning <= destage.positioning)))) {
    start_host(*host.command, host.positioning);
  } else if (destage.extent >= 0) {
    start_destage(destage.extent, destage.positioning);
  } else if (next_eligible != kNever) {
    mechanism_.schedule_at(next_eligible);
  }
}

void Hdd::start_host(Command& c, sim::Duration positioning) {
  queue_.erase(queue_.iterator_to(c));
  const sim::Time now = sim_.now();
  const sim::Time ready = now + config_.hdd.command_setup;
  busy_ = true;
  if (readahead_.covers(c)) {
    // The head is already reading this data: no seek, no rotation.
    const sim::Time end = std::max(ready, readahead_.reached(c.end_sector()));
    readahead_.ride(c, config_.hdd.read_segment / kSectorBytes);
    completions_.complete_at(c, end);
    mechanism_.schedule_at(end);
    return;
  }
  readahead_.stop(now);  // the stream ends where the head leaves it
  const std::int64_t byte = c.sector * kSectorBytes;
  if (c.op == Op::Write) readahead_.written(c.sector, c.end_sector());
  const sim::Time end = ready + positioning + geometry_.transfer_time(byte, c.bytes);
  head_.transferred(c.sector, c.bytes);
  if (c.op == Op::Read) {
    readahead_.start(c.end_sector(), config_.hdd.read_segment / kSectorBytes, end,
                     geometry_.sustained_rate(byte) / sim::kSecond);
  }
  completions_.complete_at(c, end);
  mechanism_.schedule_at(end);
}

void Hdd::start_destage(int index, sim::Duration positioning) {
  const sim::Time now = sim_.now();
  readahead_.stop(now);
  const auto& e = cache_.extents()[static_cast<std::size_t>(index)];
  readahead_.written(e.sector, e.sector + e.bytes / kSectorBytes);
  const std::int64_t byte = e.sector * kSectorBytes;
  const sim::Time end = now + config_.hdd.command_setup + positioning + geometry_.transfer_time(byte, e.bytes);
  head_.transferred(e.sector, e.bytes);
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
    completions_.complete_at(c, link_transfer(c.bytes));
  }
}

void Hdd::check_flushes() {
  while (!flushes_.empty() && !cache_.holds_up_to(flushes_.front().device_tag)) {
    Command& c = flushes_.front();
    flushes_.pop_front();
    completions_.complete_at(c, sim_.now());
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
