// tests/os/fake_device.h
//
// A small stand-in for a disk in tests of the Linux layer: a command queue of
// a given depth served one command at a time, in arrival order, with a
// fixed cost per command, a positioning cost that grows with the distance
// from the previous command (a crude seek curve) and a transfer rate.
// `volatile_cache` makes the block layer issue flushes (writes always pay
// full cost here) and keeps every completed write volatile until a flush
// completes after it; `queued_flush = false` drains the queue as on SATA.
// A write that reaches the head within [stall_writes_from, stall_writes_until)
// completes only after the stall ends (a controller busy with something else),
// and the commands queued behind it wait with it.
#pragma once

#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/disk/device.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::os::testing {

struct FakeDeviceConfig {
  int queue_depth = 1;
  bool queued_flush = true;
  bool volatile_cache = false;
  bool rotational = true;
  sim::Duration fixed = 100 * sim::kMicrosecond;  // per command
  sim::Duration full_seek = 0;                    // positioning across the whole capacity (sqrt curve)
  double bytes_per_second = 100.0 * 1024 * 1024;
  sim::Duration flush_time = 1 * sim::kMillisecond;
  std::int64_t capacity = 64LL * 1024 * 1024 * 1024;
  sim::Time stall_writes_from = 0;
  sim::Time stall_writes_until = 0;
};

class FakeDevice final : public disk::Device {
 public:
  FakeDevice(sim::Simulator& sim, FakeDeviceConfig config)
      : sim_(sim), config_(config), timer_(sim, [this] { finish(); }) {
    info_.queue_depth = config.queue_depth;
    info_.queued_flush = config.queued_flush;
    info_.volatile_cache = config.volatile_cache;
    info_.rotational = config.rotational;
    info_.capacity_bytes = config.capacity;
  }

  const disk::DeviceInfo& info() const override { return info_; }
  bool can_accept(disk::Op op) const override {
    if (flushing_) return false;
    if (op == disk::Op::Flush && !config_.queued_flush) return queue_.empty();
    return static_cast<int>(queue_.size()) < config_.queue_depth;
  }
  void submit(disk::Command& command) override {
    command.device_start = sim_.now();
    if (command.op == disk::Op::Flush && !config_.queued_flush) flushing_ = true;
    queue_.push_back(&command);
    ++submitted_;
    if (queue_.size() == 1) start();
  }
  int outstanding() const override { return static_cast<int>(queue_.size()); }
  void volatile_ranges(std::vector<disk::SectorRange>& out) const override {
    out.insert(out.end(), unflushed_.begin(), unflushed_.end());
  }

  // The sectors of every command served, in order.
  std::deque<disk::Command> log;
  std::int64_t submitted() const { return submitted_; }
  int max_outstanding = 0;

 private:
  sim::Duration service(const disk::Command& c) {
    if (c.op == disk::Op::Flush) return config_.flush_time;
    sim::Duration t = config_.fixed;
    const sim::Time now = sim_.now();
    if (c.op == disk::Op::Write && now >= config_.stall_writes_from && now < config_.stall_writes_until) {
      t += config_.stall_writes_until - now;
    }
    if (config_.full_seek > 0) {
      const double distance =
          std::abs(static_cast<double>(c.sector - head_)) * disk::kSectorBytes / static_cast<double>(config_.capacity);
      t += static_cast<sim::Duration>(static_cast<double>(config_.full_seek) * std::sqrt(distance));
    }
    t += static_cast<sim::Duration>(static_cast<double>(c.bytes) / config_.bytes_per_second * 1e9);
    head_ = c.end_sector();
    return t;
  }
  void start() {
    if (static_cast<int>(queue_.size()) > max_outstanding) max_outstanding = static_cast<int>(queue_.size());
    timer_.schedule_in(service(*queue_.front()));
  }
  void finish() {
    disk::Command* c = queue_.front();
    queue_.pop_front();
    if (c->op == disk::Op::Flush) {
      flushing_ = false;
      unflushed_.clear();
    } else if (c->op == disk::Op::Write && config_.volatile_cache && !c->fua) {
      unflushed_.push_back({c->sector, c->bytes / disk::kSectorBytes});
    }
    c->device_end = sim_.now();
    log.push_back(*c);
    if (!queue_.empty()) start();
    c->owner->command_completed(*c);
  }

  sim::Simulator& sim_;
  FakeDeviceConfig config_;
  disk::DeviceInfo info_;
  std::deque<disk::Command*> queue_;
  sim::Timer timer_;
  std::int64_t head_ = 0;
  bool flushing_ = false;
  std::vector<disk::SectorRange> unflushed_;  // writes completed since the last flush
  std::int64_t submitted_ = 0;
};

}  // namespace ckptsim::os::testing
