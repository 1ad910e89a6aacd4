// models/disk/controller_cache.cpp
#include "models/disk/controller_cache.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace ckptsim::disk {

namespace {
constexpr std::int64_t kMaxExtentBytes = 512 * 1024;  // a destage is at most one max_sectors_kb request
constexpr int kExtentChunk = 4096;
// WOW's initial thresholds and its steady rate below the low one.
constexpr double kLowWatermark = 0.8;
constexpr double kHighWatermark = 0.9;
constexpr int kSteadyDestages = 4;
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
      destage_depth_(std::max(1, array_->info().queue_depth * 3 / 4)),
      flush_timer_(sim, [this] { periodic_flush(); }) {
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

// Into the cache if there is room. The write joins the dirty extents it
// overlaps or touches (XLogWrite rewrites the last partial WAL page with each
// commit, so WAL writes overlap by a page) unless they are being destaged,
// and only the bytes not cached yet count: a rewrite costs no room.
bool ControllerCache::admit(const Command& w) {
  std::int64_t first = w.sector;
  const std::int64_t last = w.end_sector();
  // The run of extents the write joins: the one before if it reaches the
  // write, then those that start inside or right after it.
  auto begin = dirty_.lower_bound(first, SectorLess());
  if (begin != dirty_.begin()) {
    auto before = std::prev(begin);
    if (!before->destaging && before->end_sector() >= first) begin = before;
  }
  auto end = begin;
  while (end != dirty_.end() && end->sector <= last && !end->destaging) ++end;  // data in flight stays apart
  const auto span = [&](auto from) {
    std::int64_t lo = first, hi = last;
    for (auto x = from; x != end; ++x) {
      lo = std::min(lo, x->sector);
      hi = std::max(hi, x->end_sector());
    }
    return std::pair{lo, hi};
  };
  const auto too_long = [](std::pair<std::int64_t, std::int64_t> r) {
    return (r.second - r.first) * kSectorBytes > kMaxExtentBytes;
  };
  if (begin != end && begin->sector < w.sector && too_long(span(begin))) {
    // Too long for one destage: the part the extent before holds is absorbed
    // there, the rest joins what follows.
    first = std::min(begin->end_sector(), last);
    ++begin;
    if (first == last) return true;
  }
  if (too_long(span(begin))) begin = end = dirty_.end();  // keep the write apart
  const auto [lo, hi] = span(begin);
  std::int64_t joined_bytes = 0;
  for (auto x = begin; x != end; ++x) joined_bytes += x->bytes;
  const std::int64_t added = (hi - lo) * kSectorBytes - joined_bytes;
  if (dirty_bytes_ + added > config_.controller_cache) return false;

  std::uint64_t epoch = flush_epoch_;  // the merged extent is as old as its oldest part
  for (auto x = begin; x != end;) {
    Extent& e = *x;
    x = dirty_.erase(x);
    epoch = std::min(epoch, e.epoch);
    if (e.epoch == flush_epoch_) --fresh_;
    free_extents_.push_back(&e);
  }
  Extent* e = new_extent();
  e->sector = lo;
  e->bytes = (hi - lo) * kSectorBytes;
  e->destaging = false;
  e->epoch = epoch;
  if (epoch == flush_epoch_) ++fresh_;
  if (!flush_timer_.pending()) flush_timer_.schedule_in(config_.controller_flush_interval);
  dirty_.insert(*e);
  dirty_bytes_ += added;
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

void ControllerCache::periodic_flush() {
  ++flush_epoch_;
  fresh_ = 0;  // everything dirty now is due
  pump();
}

double ControllerCache::occupancy() const {
  return static_cast<double>(dirty_bytes_) / static_cast<double>(config_.controller_cache);
}

int ControllerCache::wanted_destages() const {
  const double full = occupancy();
  if (full >= kHighWatermark) return destage_depth_;
  if (full >= kLowWatermark) {
    const double ramp = (full - kLowWatermark) / (kHighWatermark - kLowWatermark);
    return std::max(kSteadyDestages, 1 + static_cast<int>(ramp * (destage_depth_ - 1)));
  }
  const auto due = static_cast<std::int64_t>(dirty_.size()) - destaging_ - fresh_;
  return due > 0 ? std::min(kSteadyDestages, destage_depth_) : 0;
}

ControllerCache::Extent* ControllerCache::next_for_destage(bool fresh_too) {
  auto it = dirty_.lower_bound(cursor_, SectorLess());
  for (int pass = 0; pass < 2; ++pass) {
    for (; it != dirty_.end(); ++it) {
      if (!it->destaging && (fresh_too || it->epoch != flush_epoch_)) return &*it;
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
  while (destaging_ < wanted_destages() && !free_children_.empty() && array_->can_accept(Op::Write)) {
    Extent* e = next_for_destage(occupancy() >= kLowWatermark);
    if (e == nullptr) break;
    if (e->epoch == flush_epoch_) --fresh_;
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
