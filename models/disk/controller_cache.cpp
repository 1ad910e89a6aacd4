// models/disk/controller_cache.cpp
#include "models/disk/controller_cache.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace ckptsim::disk {

namespace {
constexpr std::int64_t kMaxExtentBytes = 512 * 1024;  // a destage is at most one max_sectors_kb request
constexpr int kExtentChunk = 4096;
}  // namespace

// Orders extents against a bare sector, for lookups in the tree.
struct ControllerCache::SectorLess {
  bool operator()(const Extent& e, std::int64_t s) const { return e.sector < s; }
  bool operator()(std::int64_t s, const Extent& e) const { return s < e.sector; }
};

ControllerCache::ControllerCache(sim::Simulator& sim, const DeviceConfig& config, std::unique_ptr<Device> array)
    : sim_(sim),
      config_(config),
      array_(std::move(array)),
      completions_(sim, [this](Command& c) { finished(c); }),
      destage_depth_(std::max(1, array_->info().queue_depth * 3 / 4)) {
  info_.queue_depth = static_cast<int>(config.controller_queue_depth);
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
  dirty_.clear();
  reads_waiting_.clear();
  writes_waiting_.clear();
}

bool ControllerCache::can_accept(Op) const { return outstanding_ < info_.queue_depth; }

ControllerCache::Extent* ControllerCache::new_extent() {
  if (free_extents_.empty()) {
    extent_chunks_.push_back(std::make_unique<Extent[]>(kExtentChunk));
    for (int i = kExtentChunk - 1; i >= 0; --i) free_extents_.push_back(&extent_chunks_.back()[i]);
  }
  Extent* e = free_extents_.back();
  free_extents_.pop_back();
  return e;
}

// Into the cache if there is room: absorbed by a rewrite of the same range,
// merged onto an adjacent extent, or as a new extent.
bool ControllerCache::admit(const Command& w) {
  if (dirty_bytes_ + w.bytes > config_.controller_cache) return false;
  const std::int64_t end = w.end_sector();
  auto it = dirty_.lower_bound(w.sector, SectorLess());
  for (auto same = it; same != dirty_.end() && same->sector == w.sector; ++same) {
    if (!same->destaging && same->bytes == w.bytes) return true;
  }
  if (it != dirty_.begin()) {
    Extent& before = *std::prev(it);
    if (!before.destaging && before.end_sector() == w.sector && before.bytes + w.bytes <= kMaxExtentBytes) {
      before.bytes += w.bytes;
      dirty_bytes_ += w.bytes;
      return true;
    }
  }
  if (it != dirty_.end() && !it->destaging && it->sector == end && it->bytes + w.bytes <= kMaxExtentBytes) {
    it->sector = w.sector;  // still between its neighbours: the tree order holds
    it->bytes += w.bytes;
    dirty_bytes_ += w.bytes;
    return true;
  }
  Extent* e = new_extent();
  e->sector = w.sector;
  e->bytes = w.bytes;
  e->destaging = false;
  dirty_.insert(*e);
  dirty_bytes_ += w.bytes;
  return true;
}

bool ControllerCache::covered(const Command& r) const {
  auto it = dirty_.upper_bound(r.sector, SectorLess());
  if (it == dirty_.begin()) return false;
  const Extent& e = *std::prev(it);
  return e.end_sector() >= r.end_sector();
}

void ControllerCache::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("controller: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  const sim::Time done = sim_.now() + config_.controller_overhead;
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
      if (covered(c)) {
        completions_.complete_at(c, done);
        return;
      }
      reads_waiting_.push_back(c);
      break;
  }
  pump();
}

ControllerCache::Extent* ControllerCache::next_for_destage() {
  auto it = dirty_.lower_bound(cursor_, SectorLess());
  for (int pass = 0; pass < 2; ++pass) {
    for (; it != dirty_.end(); ++it) {
      if (!it->destaging) return &*it;
    }
    it = dirty_.begin();  // C-LOOK: back to the lowest sector
  }
  return nullptr;
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
  while (destaging_ < destage_depth_ && !free_children_.empty() && array_->can_accept(Op::Write)) {
    Extent* e = next_for_destage();
    if (e == nullptr) break;
    e->destaging = true;
    cursor_ = e->end_sector();
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
    completions_.complete_at(*child.parent, sim_.now() + config_.controller_overhead);
    child.parent = nullptr;
  } else {
    Extent* e = child.extent;
    child.extent = nullptr;
    dirty_bytes_ -= e->bytes;
    dirty_.erase(dirty_.iterator_to(*e));
    free_extents_.push_back(e);
    --destaging_;
    while (!writes_waiting_.empty() && admit(writes_waiting_.front())) {
      Command& w = writes_waiting_.front();
      writes_waiting_.pop_front();
      completions_.complete_at(w, sim_.now() + config_.controller_overhead);
    }
  }
  pump();
}

void ControllerCache::finished(Command& c) {
  --outstanding_;
  c.owner->command_completed(c);
}

}  // namespace ckptsim::disk
