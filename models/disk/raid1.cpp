// models/disk/raid1.cpp
#include "models/disk/raid1.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::disk {

Raid1::Raid1(sim::Simulator& sim, std::vector<std::unique_ptr<Device>> members)
    : sim_(sim),
      members_(std::move(members)),
      waiting_(members_.size()),
      read_balance_(static_cast<int>(members_.size())) {
  if (members_.empty()) throw std::invalid_argument("raid1: no members");
  const DeviceInfo& first = members_.front()->info();
  info_ = first;
  for (const auto& m : members_) {
    info_.queue_depth = std::min(info_.queue_depth, m->info().queue_depth);
    info_.queued_flush = info_.queued_flush && m->info().queued_flush;
    info_.volatile_cache = info_.volatile_cache || m->info().volatile_cache;
    info_.capacity_bytes = std::min(info_.capacity_bytes, m->info().capacity_bytes);
  }
  clones_.resize(static_cast<std::size_t>(info_.queue_depth) * members_.size());
  free_clones_.reserve(clones_.size());
  for (auto it = clones_.rbegin(); it != clones_.rend(); ++it) {
    it->owner = this;
    free_clones_.push_back(&*it);
  }
}

Raid1::~Raid1() {
  for (auto& list : waiting_) list.clear();
}

bool Raid1::can_accept(Op op) const {
  if (blocking_flush_) return false;
  if (op == Op::Flush && !info_.queued_flush) return outstanding_ == 0;
  return outstanding_ < info_.queue_depth;
}

void Raid1::submit(Command& c) {
  if (!can_accept(c.op)) throw std::logic_error("raid1: command submitted while the queue cannot take it");
  c.device_start = sim_.now();
  ++outstanding_;
  if (c.op == Op::Flush && !info_.queued_flush) blocking_flush_ = true;
  const int first = c.op == Op::Read ? read_balance_.read(c.sector, c.end_sector()) : 0;
  const int last = c.op == Op::Read ? first + 1 : members();
  c.device_tag = static_cast<std::uint64_t>(last - first);  // clones still to complete
  for (int m = first; m < last; ++m) {
    Clone& clone = *free_clones_.back();
    free_clones_.pop_back();
    clone.parent = &c;
    clone.member = m;
    clone.op = c.op;
    clone.sector = c.sector;
    clone.bytes = c.bytes;
    clone.fua = c.fua;
    if (c.op == Op::Write) read_balance_.sent(m, c.end_sector());
    auto& queue = waiting_[static_cast<std::size_t>(m)];
    if (queue.empty() && members_[static_cast<std::size_t>(m)]->can_accept(c.op)) {
      send(clone);
    } else {
      queue.push_back(clone);
    }
  }
}

void Raid1::send(Clone& clone) { members_[static_cast<std::size_t>(clone.member)]->submit(clone); }

void Raid1::dispatch_waiting(int member) {
  auto& queue = waiting_[static_cast<std::size_t>(member)];
  Device& device = *members_[static_cast<std::size_t>(member)];
  while (!queue.empty() && device.can_accept(queue.front().op)) {
    Command& command = queue.front();
    queue.pop_front();
    send(static_cast<Clone&>(command));
  }
}

void Raid1::command_completed(Command& done) {
  Clone& clone = static_cast<Clone&>(done);  // every command this array submits is a Clone
  Command& parent = *clone.parent;
  const int member = clone.member;
  clone.parent = nullptr;
  free_clones_.push_back(&clone);
  dispatch_waiting(member);
  if (--parent.device_tag == 0) finished(parent);
}

void Raid1::finished(Command& parent) {
  parent.device_end = sim_.now();
  --outstanding_;
  if (parent.op == Op::Flush && !info_.queued_flush) blocking_flush_ = false;
  parent.owner->command_completed(parent);
}

}  // namespace ckptsim::disk
