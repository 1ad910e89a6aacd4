// models/disk/throttled_volume.cpp
#include "models/disk/throttled_volume.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::disk {

ThrottledVolume::ThrottledVolume(sim::Simulator& sim, const VolumeConfig& config, Kind kind,
                                 std::unique_ptr<Device> storage, IoLimits* instance)
    : sim_(sim),
      storage_(std::move(storage)),
      limits_(config.limits, sim.now()),
      instance_(instance),
      latency_(config.latency),
      operations_(kind == Kind::Hdd ? kHddVolumeOperation : kSsdVolumeOperation),
      info_(storage_->info()),
      completions_(sim, [this](Command& c) { finished(c); }),
      retry_(sim, [this] { pump(); }) {
  children_.resize(static_cast<std::size_t>(std::max(1, info_.queue_depth)));
  for (auto it = children_.rbegin(); it != children_.rend(); ++it) {
    it->owner = this;
    free_children_.push_back(&*it);
  }
}

ThrottledVolume::~ThrottledVolume() { waiting_.clear(); }

void ThrottledVolume::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("volume: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  c.device_tag = static_cast<std::uint64_t>(operations_.count(c));
  ++outstanding_;
  waiting_.push_back(c);
  pump();
}

void ThrottledVolume::pump() {
  while (!waiting_.empty() && !free_children_.empty() && storage_->can_accept(waiting_.front().op)) {
    Command& c = waiting_.front();
    const auto operations = static_cast<double>(c.device_tag);
    const auto bytes = static_cast<double>(c.bytes);
    const sim::Time now = sim_.now();
    sim::Time go = limits_.earliest(now, operations, bytes);
    if (instance_ != nullptr) go = std::max(go, instance_->earliest(now, operations, bytes));
    if (go > now) {
      throttling(true);
      retry_.schedule_at(go);
      return;
    }
    throttling(false);
    limits_.take(now, operations, bytes);
    if (instance_ != nullptr) instance_->take(now, operations, bytes);
    operations_done_ += static_cast<std::int64_t>(c.device_tag);
    bytes_done_ += c.bytes;
    waiting_.pop_front();
    Child& child = *free_children_.back();
    free_children_.pop_back();
    child.parent = &c;
    child.op = c.op;
    child.sector = c.sector;
    child.bytes = c.bytes;
    child.fua = c.fua;
    storage_->submit(child);
  }
  throttling(false);  // empty, or the storage is full: no bucket holds the head
}

void ThrottledVolume::throttling(bool held) {
  if (held && held_since_ < 0) held_since_ = sim_.now();
  if (!held && held_since_ >= 0) {
    throttled_ += sim_.now() - held_since_;
    held_since_ = -1;
  }
}

void ThrottledVolume::command_completed(Command& done) {
  Child& child = static_cast<Child&>(done);  // every command sent to the storage is a Child
  Command& parent = *child.parent;
  child.parent = nullptr;
  free_children_.push_back(&child);
  completions_.complete_at(parent, sim_.now() + latency_);
  pump();
}

void ThrottledVolume::finished(Command& c) {
  --outstanding_;
  c.owner->command_completed(c);
}

VolumeReport ThrottledVolume::report() const {
  VolumeReport r;
  r.operations = operations_done_;
  r.bytes = bytes_done_;
  r.throttled = throttled_ + (held_since_ >= 0 ? sim_.now() - held_since_ : 0);
  r.burst_balance_pct = limits_.balance_pct(sim_.now());
  return r;
}

void ThrottledVolume::add_system_columns(sim::Table& system, const std::string& prefix) {
  const VolumeReport start = report();
  sampled_operations_ = start.operations;
  sampled_bytes_ = start.bytes;
  sampled_throttled_ = start.throttled;
  system.add_source(
      {prefix + "vol_iops", prefix + "vol_mb_s", prefix + "vol_burst_balance_pct", prefix + "vol_throttled_ms"},
      [this](const sim::Interval& iv, std::span<sim::Cell> cells) {
        const VolumeReport now = report();
        const double seconds = sim::to_seconds(iv.end - iv.start);
        const auto per_second = [seconds](double v) { return seconds > 0 ? v / seconds : 0.0; };
        cells[0] = per_second(static_cast<double>(now.operations - sampled_operations_));
        cells[1] = per_second(static_cast<double>(now.bytes - sampled_bytes_) / sim::kMiB);
        cells[2] = now.burst_balance_pct;
        cells[3] = sim::to_millis(now.throttled - sampled_throttled_);
        sampled_operations_ = now.operations;
        sampled_bytes_ = now.bytes;
        sampled_throttled_ = now.throttled;
      });
}

}  // namespace ckptsim::disk
