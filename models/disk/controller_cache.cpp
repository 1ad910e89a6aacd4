// models/disk/controller_cache.cpp
#include "models/disk/controller_cache.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::disk {

namespace {
// WOW's initial thresholds and its steady rate below the low one.
constexpr double kLowWatermark = 0.8;
constexpr double kHighWatermark = 0.9;
constexpr int kSteadyDestages = 4;
}  // namespace

ControllerCache::ControllerCache(sim::Simulator& sim, const ControllerConfig& config, std::unique_ptr<Device> array)
    : sim_(sim),
      config_(config),
      array_(std::move(array)),
      completions_(sim, [this](Command& c) { finished(c); }),
      extents_(config.cache),
      destage_depth_(std::max(1, array_->info().queue_depth * 3 / 4)),
      flush_timer_(sim, [this] { periodic_flush(); }) {
  info_.queue_depth = static_cast<int>(config.queue_depth);
  info_.queued_flush = true;
  info_.volatile_cache = false;  // battery-backed: nothing to lose on power failure
  info_.rotational = array_->info().rotational;
  info_.capacity_bytes = array_->info().capacity_bytes;
  children_.resize(static_cast<std::size_t>(info_.queue_depth + destage_depth_));
  for (auto it = children_.rbegin(); it != children_.rend(); ++it) {
    it->owner = this;
    free_children_.push_back(&*it);
  }
}

ControllerCache::~ControllerCache() {
  reads_waiting_.clear();
  writes_waiting_.clear();
}

bool ControllerCache::can_accept(Op) const { return outstanding_ < info_.queue_depth; }

bool ControllerCache::admit(const Command& w) {
  const BbwcExtents::Admitted admitted = extents_.admit(w);
  if (admitted == BbwcExtents::Admitted::NewExtent && !flush_timer_.pending()) {
    flush_timer_.schedule_in(config_.flush_interval);
  }
  return admitted != BbwcExtents::Admitted::NoRoom;
}

void ControllerCache::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("controller: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  const sim::Time done = sim_.now() + config_.overhead;
  switch (c.op) {
    case Op::Flush:  // the cache is battery-backed: nothing to do
      completions_.complete_at(c, done);
      return;
    case Op::Write:
      if (writes_waiting_.empty() && admit(c)) {
        completions_.complete_at(c, done);
      } else {
        writes_waiting_.push_back(c);
      }
      break;
    case Op::Read:
      if (extents_.covered(c)) {
        completions_.complete_at(c, done);
        return;
      }
      reads_waiting_.push_back(c);
      break;
  }
  pump();
}

void ControllerCache::periodic_flush() {
  extents_.new_epoch();
  pump();
}

int ControllerCache::wanted_destages() const {
  const double full = extents_.occupancy();
  if (full >= kHighWatermark) return destage_depth_;
  if (full >= kLowWatermark) {
    const double ramp = (full - kLowWatermark) / (kHighWatermark - kLowWatermark);
    return std::max(kSteadyDestages, 1 + static_cast<int>(ramp * (destage_depth_ - 1)));
  }
  const auto due = extents_.count() - destaging_ - extents_.fresh();
  return due > 0 ? std::min(kSteadyDestages, destage_depth_) : 0;
}

void ControllerCache::pump() {
  while (!reads_waiting_.empty() && !free_children_.empty() && array_->can_accept(Op::Read)) {
    Command& read = reads_waiting_.front();
    reads_waiting_.pop_front();
    Child& child = *free_children_.back();
    free_children_.pop_back();
    child.parent = &read;
    child.extent = nullptr;
    child.op = Op::Read;
    child.sector = read.sector;
    child.bytes = read.bytes;
    child.fua = false;
    array_->submit(child);
  }
  if (!reads_waiting_.empty()) return;  // reads first
  while (destaging_ < wanted_destages() && !free_children_.empty() && array_->can_accept(Op::Write)) {
    BbwcExtents::Extent* e = extents_.next_for_destage(extents_.occupancy() >= kLowWatermark);
    if (e == nullptr) break;
    extents_.destage_started(*e);
    ++destaging_;
    Child& child = *free_children_.back();
    free_children_.pop_back();
    child.parent = nullptr;
    child.extent = e;
    child.op = Op::Write;
    child.sector = e->sector;
    child.bytes = e->bytes;
    child.fua = false;
    array_->submit(child);
  }
}

void ControllerCache::command_completed(Command& done) {
  Child& child = static_cast<Child&>(done);  // every command sent to the array is a Child
  free_children_.push_back(&child);
  if (child.parent != nullptr) {
    completions_.complete_at(*child.parent, sim_.now() + config_.overhead);
    child.parent = nullptr;
  } else {
    BbwcExtents::Extent* e = child.extent;
    child.extent = nullptr;
    extents_.destage_done(*e);
    --destaging_;
    while (!writes_waiting_.empty() && admit(writes_waiting_.front())) {
      Command& w = writes_waiting_.front();
      writes_waiting_.pop_front();
      completions_.complete_at(w, sim_.now() + config_.overhead);
    }
  }
  pump();
}

void ControllerCache::finished(Command& c) {
  --outstanding_;
  c.owner->command_completed(c);
}

}  // namespace ckptsim::disk
