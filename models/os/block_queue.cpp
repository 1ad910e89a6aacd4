// models/os/block_queue.cpp
//
// Request life cycle of one block device: bio -> plug or merge -> request
// (pool slot) -> elevator -> device -> completion (bios ended, slot freed,
// sleepers woken, diskstats). See block_queue.h for the rules modelled.
#include "models/os/block_queue.h"

#include <algorithm>
#include <stdexcept>

namespace ckptsim::os {

BlockQueue::BlockQueue(sim::Simulator& sim, const OsConfig& config, disk::Device& device,
                       Scheduler scheduler, std::string name)
    : sim_(sim),
      config_(config),
      device_(device),
      name_(std::move(name)),
      legacy_(config.block_layer == BlockLayer::Legacy) {
  const disk::DeviceInfo& info = device.info();
  const Scheduler elevator =
      scheduler == Scheduler::Default ? default_elevator(config.block_layer, info.rotational) : scheduler;
  elevator_ = make_elevator(elevator, config, *this);
  if (config.nr_requests > 0) {
    nr_requests_ = static_cast<int>(config.nr_requests);
  } else if (legacy_) {
    nr_requests_ = 128;  // BLKDEV_MAX_RQ
  } else if (elevator == Scheduler::None) {
    nr_requests_ = std::max(info.queue_depth, 1);  // the hardware tags
  } else {
    nr_requests_ = 2 * std::min(std::max(info.queue_depth, 1), 128);  // scheduler tags
  }
  max_sectors_ = std::max<std::int64_t>(config.max_sectors_kb / disk::kSectorBytes, 16);
  const int total = legacy_ ? 2 * nr_requests_ : nr_requests_;
  requests_.reserve(static_cast<std::size_t>(total));
  for (int i = 0; i < total; ++i) {
    requests_.push_back(std::make_unique<Request>());
    requests_.back()->owner = this;
    free_.push_back(*requests_.back());
  }
  flush_command_.op = disk::Op::Flush;
  flush_command_.owner = this;
}

BlockQueue::~BlockQueue() {
  merge_index_.clear();
  free_.clear();
  elevator_.reset();
  for (auto& rq : requests_) rq->bios.clear();
}

// ---- request pool ----

Request* BlockQueue::alloc_request(bool sync) {
  const int pool = pool_of(sync);
  if (allocated_[pool] >= nr_requests_ || waiter_count_[pool] > 0 || free_.empty()) return nullptr;
  ++allocated_[pool];
  Request& rq = free_.front();
  free_.pop_front();
  rq.sync = sync;
  return &rq;
}

void BlockQueue::free_request(Request& rq) {
  rq.state = RequestState::Free;
  const int pool = pool_of(rq.sync);
  if (!waiters_[pool].empty()) {
    // Hand the slot to the first sleeper: a newcomer cannot overtake it.
    RequestAwaiter::Node& node = waiters_[pool].front();
    waiters_[pool].pop_front();
    --waiter_count_[pool];
    rq.sync = node.awaiter->sync_;
    node.awaiter->granted_ = &rq;
    sim_.resume_now(node.coroutine);
    return;
  }
  --allocated_[pool];
  free_.push_front(rq);
}

bool BlockQueue::RequestAwaiter::await_ready() noexcept {
  granted_ = queue_.alloc_request(sync_);
  return granted_ != nullptr;
}

void BlockQueue::RequestAwaiter::await_suspend(std::coroutine_handle<> self) noexcept {
  node_.coroutine = self;
  node_.awaiter = this;
  const int pool = queue_.pool_of(sync_);
  queue_.waiters_[pool].push_back(node_);
  ++queue_.waiter_count_[pool];
}

bool BlockQueue::congested(bool sync) const {
  const int nr = nr_requests_;
  const int threshold = std::min(nr - nr / 8 + 1, nr);
  return allocated_[pool_of(sync)] >= threshold || waiter_count_[pool_of(sync)] > 0;
}

int BlockQueue::waiting_for_requests(bool sync) const { return waiter_count_[pool_of(sync)]; }

// ---- submission and merging ----

void BlockQueue::count_merge(const Bio& bio) {
  (bio.op == disk::Op::Read ? stats_.read_merges : stats_.write_merges)++;
}

bool BlockQueue::can_merge(const Request& rq, const Bio& bio) const {
  return rq.op == bio.op && rq.bytes / disk::kSectorBytes + bio.bytes / disk::kSectorBytes <= max_sectors_ &&
         (rq.state != RequestState::Queued || elevator_->allow_merge(rq, bio));
}

void BlockQueue::back_merge(Request& rq, Bio& bio) {
  rq.bytes += bio.bytes;
  rq.bios.push_back(bio);
  count_merge(bio);
}

void BlockQueue::front_merge(Request& rq, Bio& bio) {
  const bool queued = rq.state == RequestState::Queued;
  if (queued) merge_index_.erase(merge_index_.iterator_to(rq));
  rq.sector = bio.sector;
  rq.bytes += bio.bytes;
  rq.bios.push_front(bio);
  if (queued) {
    merge_index_.insert(rq);
    elevator_->front_merged(rq);
  }
  count_merge(bio);
}

bool BlockQueue::merge_into_plug(Bio& bio, Plug& plug) {
  // blk_attempt_plug_merge: newest requests first.
  for (auto it = plug.requests.rbegin(); it != plug.requests.rend(); ++it) {
    Request& rq = *it;
    if (!can_merge(rq, bio)) continue;
    if (rq.end() == bio.sector) {
      back_merge(rq, bio);
      return true;
    }
    if (bio.end_sector() == rq.sector) {
      front_merge(rq, bio);
      return true;
    }
  }
  return false;
}

bool BlockQueue::merge_into_queue(Bio& bio) {
  // Back merge: a queued request ending at bio.sector starts before it.
  auto it = merge_index_.upper_bound(bio.sector);
  for (int looked = 0; it != merge_index_.begin() && looked < 4; ++looked) {
    --it;
    if (it->end() == bio.sector && can_merge(*it, bio)) {
      Request& rq = *it;
      back_merge(rq, bio);
      merge_neighbours(rq);
      return true;
    }
  }
  // Front merge: a queued request starting at bio's end.
  for (auto range = merge_index_.equal_range(bio.end_sector()); range.first != range.second; ++range.first) {
    if (can_merge(*range.first, bio)) {
      Request& rq = *range.first;
      front_merge(rq, bio);
      merge_neighbours(rq);
      return true;
    }
  }
  return false;
}

bool BlockQueue::try_merge_requests(Request& first, Request& second) {
  if (&first == &second || first.op != second.op || first.end() != second.sector) return false;
  if ((first.bytes + second.bytes) / disk::kSectorBytes > max_sectors_) return false;
  if (first.sync != second.sync) return false;
  if (!second.bios.empty() && !elevator_->allow_merge(first, second.bios.front())) return false;
  elevator_->merged_away(first, second);
  merge_index_.erase(merge_index_.iterator_to(second));
  first.bytes += second.bytes;
  first.bios.splice(first.bios.end(), second.bios);
  first.created = std::min(first.created, second.created);
  first.fifo_time = std::min(first.fifo_time, second.fifo_time);
  // The absorbed request was counted in flight and as an I/O: it becomes a merge.
  stats_.advance(sim_.now());
  --stats_.in_flight;
  (first.op == disk::Op::Read ? stats_.read_merges : stats_.write_merges)++;
  free_request(second);
  return true;
}

// attempt_back_merge / attempt_front_merge after a merge grew `rq`.
void BlockQueue::merge_neighbours(Request& rq) {
  for (auto range = merge_index_.equal_range(rq.end()); range.first != range.second; ++range.first) {
    if (try_merge_requests(rq, *range.first)) break;
  }
  auto it = merge_index_.iterator_to(rq);
  for (int looked = 0; it != merge_index_.begin() && looked < 4; ++looked) {
    --it;
    if (it->end() == rq.sector) {
      if (try_merge_requests(*it, rq)) return;
    }
  }
}

void BlockQueue::init_request(Request& rq, Bio& bio) {
  rq.op = bio.op;
  rq.sector = bio.sector;
  rq.bytes = bio.bytes;
  rq.fua = false;
  rq.sync = bio.sync;
  rq.pid = bio.pid;
  rq.created = sim_.now();
  rq.fifo_time = 0;
  rq.bios.push_back(bio);
}

sim::Task<> BlockQueue::submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers) {
  if (try_submit(bio, plug)) co_return;
  if (plug != nullptr) unplug(*plug);
  const sim::StateScope<IoLayer> waiting(layers, IoLayer::RequestSlot);
  submit_into(co_await get_request(bio.sync), bio, plug);
}

bool BlockQueue::try_submit(Bio& bio, Plug* plug) {
  if (plug != nullptr && merge_into_plug(bio, *plug)) return true;
  if (merge_into_queue(bio)) {
    run_queue();
    return true;
  }
  Request* rq = alloc_request(bio.sync);
  if (rq == nullptr) return false;
  submit_into(*rq, bio, plug);
  return true;
}

void BlockQueue::submit_into(Request& rq, Bio& bio, Plug* plug) {
  init_request(rq, bio);
  if (plug != nullptr) {
    rq.state = RequestState::Plugged;
    plug->requests.push_back(rq);
    if (++plug->count > kMaxPlugged) unplug(*plug);
    return;
  }
  insert(rq);
  run_queue();
}

void BlockQueue::unplug(Plug& plug) {
  if (plug.requests.empty()) return;
  // blk_flush_plug_list: sorted by sector, each tried for a merge with the queue.
  plug.requests.sort([](const Request& a, const Request& b) { return a.sector < b.sector; });
  for (auto it = plug.requests.begin(); it != plug.requests.end();) {
    Request& rq = *it;
    if (rq.owner != this) {
      ++it;
      continue;
    }
    it = plug.requests.erase(it);
    --plug.count;
    insert(rq);
  }
  if (plug.requests.empty()) plug.count = 0;
  run_queue();
}

void BlockQueue::insert(Request& rq) {
  rq.state = RequestState::Queued;
  stats_.advance(sim_.now());
  ++stats_.in_flight;
  merge_index_.insert(rq);
  elevator_->add(rq);
  merge_neighbours(rq);
}

// ---- dispatch and completion ----

void BlockQueue::run_queue() {
  if (running_) return;
  running_ = true;
  const bool queued_flush = device_.info().queued_flush;
  for (;;) {
    if (flush_wanted_ && !flush_in_flight_) {
      if (device_.can_accept(disk::Op::Flush)) {
        flush_wanted_ = false;
        flush_in_flight_ = true;
        ++flushes_issued_;
        flush_started_ = sim_.now();
        device_.submit(flush_command_);
      } else if (!queued_flush) {
        break;  // a non-queued flush waits for the device queue to drain; nothing overtakes it
      }
    }
    if (flush_in_flight_ && !queued_flush) break;
    if (elevator_->queued() == 0 || !device_.can_accept(disk::Op::Write)) break;
    Request* rq = elevator_->dispatch();
    if (rq == nullptr) break;
    merge_index_.erase(merge_index_.iterator_to(*rq));
    rq->state = RequestState::Dispatched;
    for (Bio& bio : rq->bios) bio.owner->bio_dispatched(bio);
    device_.submit(*rq);
    peak_device_outstanding_ = std::max(peak_device_outstanding_, device_.outstanding());
  }
  running_ = false;
}

void BlockQueue::command_completed(disk::Command& command) {
  const sim::Time now = sim_.now();
  if (&command == &flush_command_) {
    flush_in_flight_ = false;
    ++flushes_done_;
    ++stats_.flushes;
    stats_.flush_ticks += now - flush_started_;
    for (auto it = flush_waiters_.begin(); it != flush_waiters_.end();) {
      FlushNode& node = *it;
      ++it;
      if (node.needed <= flushes_done_) {
        node.unlink();
        sim_.resume_now(node.coroutine);
      }
    }
    run_queue();
    return;
  }
  Request& rq = static_cast<Request&>(command);
  stats_.advance(now);
  --stats_.in_flight;
  const std::int64_t sectors = rq.bytes / disk::kSectorBytes;
  if (rq.op == disk::Op::Read) {
    ++stats_.reads;
    stats_.read_sectors += sectors;
    stats_.read_ticks += now - rq.created;
  } else {
    ++stats_.writes;
    stats_.write_sectors += sectors;
    stats_.write_ticks += now - rq.created;
  }
  elevator_->completed(rq);
  while (!rq.bios.empty()) {
    Bio& bio = rq.bios.front();
    rq.bios.pop_front();
    bio.owner->bio_done(bio);
  }
  free_request(rq);
  run_queue();
}

bool BlockQueue::FlushAwaiter::await_ready() noexcept {
  if (!queue_.device_.info().volatile_cache) return true;
  node_.needed = queue_.flushes_issued_ + 1;
  return false;
}

void BlockQueue::FlushAwaiter::await_suspend(std::coroutine_handle<> self) noexcept {
  node_.coroutine = self;
  queue_.flush_waiters_.push_back(node_);
  queue_.flush_wanted_ = true;
  queue_.run_queue();
}

DiskStats BlockQueue::stats() const {
  stats_.advance(sim_.now());
  return stats_;
}

}  // namespace ckptsim::os
