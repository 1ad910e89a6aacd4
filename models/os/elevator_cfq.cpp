// models/os/elevator_cfq.cpp
//
// CFQ-lite: the parts of the Completely Fair Queueing elevator
// (block/cfq-iosched.c, 3.2, low_latency on) that decide how reads,
// fsync / sync_file_range writes and flusher writeback share a disk.
//
// One sync queue per process (its reads, fsync writes, journal writes), one
// shared async queue (all flusher writeback). Queues take turns in time
// slices (sync 100 ms, async 40 ms, shrunk so that a round of busy queues
// fits target_latency, at least 16 ms). The async queue is keyed
// (busy - 1) x 60 ms behind sync queues, so under sync load it is served
// rarely; it dispatches nothing while sync requests are in the device, and
// its depth ramps up by one per slice_sync since a sync request last took
// longer than fifo_expire_sync. A sync queue that goes empty with a
// sequential reader is idled on for slice_idle before the disk is given to
// someone else; a new sync request pre-empts an async slice. Within a queue
// requests go out in C-LOOK order, or the FIFO head once per slice if it has
// expired.
//
// Left out: cgroups and group idling, I/O priorities (one best-effort
// level), the backward-seek penalty, workload trees (SYNC_NOIDLE queues are
// simply not idled on), think-time statistics.
#include <algorithm>
#include <vector>

#include "models/os/elevator.h"
#include "sim/timer.h"

namespace ckptsim::os {
namespace {

constexpr std::int64_t kSeekThresholdSectors = 8 * 1024;  // CFQQ_SEEK_THR: 4 MiB
constexpr sim::Duration kMinSlice = 16 * sim::kMillisecond;
constexpr sim::Duration kAsyncKeyPenalty = 60 * sim::kMillisecond;  // per other busy queue
constexpr int kAsyncRequestsPerSlice = 16;

struct CfqQueue {
  bool sync = true;
  SortTree sorted;
  RequestList fifo;
  int queued = 0;
  int dispatched = 0;  // in the device
  int dispatched_in_slice = 0;
  bool busy = false;
  sim::Time key = 0;  // place on the service tree
  bool fifo_checked = false;
  bool last_was_read = true;
  std::int64_t position = 0;  // end of the last dispatched request (C-LOOK)
  std::int64_t last_added_end = 0;
  std::int64_t seek_mean = 0;  // decaying mean distance between requests, sectors

  ~CfqQueue() {
    sorted.clear();
    fifo.clear();
  }
  bool seeky() const { return seek_mean > kSeekThresholdSectors; }
};

class Cfq final : public Elevator {
 public:
  Cfq(const OsConfig& config, ElevatorHost& host)
      : config_(config), host_(host), idle_timer_(host.simulator(), [this] { idle_expired(); }) {
    async_.sync = false;
  }

  const char* name() const override { return "cfq"; }

  void add(Request& rq) override {
    CfqQueue& q = queue_of(rq);
    const sim::Time now = host_.simulator().now();
    const std::int64_t distance = std::abs(rq.sector - q.last_added_end);
    q.seek_mean = (7 * q.seek_mean + distance) / 8;
    q.last_added_end = rq.end();
    q.last_was_read = rq.op == disk::Op::Read;
    q.sorted.insert(rq);
    rq.fifo_time = now + (q.sync ? config_.fifo_expire_sync : config_.fifo_expire_async);
    q.fifo.push_back(rq);
    ++q.queued;
    ++count_;
    if (!q.busy) {
      q.busy = true;
      q.key = now + (q.sync ? 0 : (busy_count_)*kAsyncKeyPenalty);
      ++busy_count_;
    }
    if (active_ == &q && idle_timer_.pending()) idle_timer_.cancel();
    // A sync request pre-empts an async slice.
    if (q.sync && active_ != nullptr && !active_->sync) expire_active();
  }

  Request* dispatch() override {
    const sim::Time now = host_.simulator().now();
    for (;;) {
      if (active_ != nullptr) {
        if (now >= slice_end_) {
          expire_active();
        } else if (active_->queued == 0) {
          if (idle_allowed(*active_)) {
            if (!idle_timer_.pending()) idle_timer_.schedule_at(std::min(now + config_.slice_idle, slice_end_));
            return nullptr;
          }
          expire_active();
        }
      }
      if (active_ == nullptr && !activate_next()) return nullptr;
      if (active_->queued > 0) break;
    }
    CfqQueue& q = *active_;
    if (!may_dispatch(q)) return nullptr;
    if (!slice_started_) {
      slice_started_ = true;
      slice_end_ = now + slice_of(q);
    }
    Request& rq = choose(q);
    q.sorted.erase(q.sorted.iterator_to(rq));
    q.fifo.erase(q.fifo.iterator_to(rq));
    --q.queued;
    --count_;
    ++q.dispatched;
    ++q.dispatched_in_slice;
    (q.sync ? sync_in_flight_ : async_in_flight_)++;
    q.position = rq.end();
    if (!q.sync && q.dispatched_in_slice >= kAsyncRequestsPerSlice && busy_count_ > 1) expire_active();
    return &rq;
  }

  void merged_away(Request&, Request& gone) override {
    CfqQueue& q = queue_of(gone);
    q.sorted.erase(q.sorted.iterator_to(gone));
    q.fifo.erase(q.fifo.iterator_to(gone));
    --q.queued;
    --count_;
  }

  void front_merged(Request& rq) override {
    CfqQueue& q = queue_of(rq);
    q.sorted.erase(q.sorted.iterator_to(rq));
    q.sorted.insert(rq);
  }

  // cfq_allow_merge: a sync bio never joins the async queue, nor another process's queue.
  bool allow_merge(const Request& rq, const Bio& bio) const override {
    return rq.sync == bio.sync && (!rq.sync || rq.pid == bio.pid);
  }

  void completed(Request& rq) override {
    CfqQueue& q = queue_of(rq);
    --q.dispatched;
    (q.sync ? sync_in_flight_ : async_in_flight_)--;
    const sim::Time now = host_.simulator().now();
    if (q.sync && now - rq.created > config_.fifo_expire_sync) last_delayed_sync_ = now;
  }

  std::size_t queued() const override { return count_; }

 private:
  CfqQueue& queue_of(const Request& rq) {
    if (!rq.sync) return async_;
    const auto pid = static_cast<std::size_t>(rq.pid);
    if (pid >= sync_.size()) sync_.resize(pid + 1);
    if (!sync_[pid]) sync_[pid] = std::make_unique<CfqQueue>();
    return *sync_[pid];
  }

  bool idle_allowed(const CfqQueue& q) const {
    return q.sync && config_.slice_idle > 0 && q.last_was_read && !q.seeky();
  }

  sim::Duration slice_of(const CfqQueue& q) const {
    const sim::Duration base = q.sync ? config_.slice_sync : config_.slice_async;
    // low_latency: the round of busy queues should fit target_latency.
    const sim::Duration round = static_cast<sim::Duration>(busy_count_) * config_.slice_sync;
    if (round <= config_.target_latency) return base;
    return std::max(kMinSlice, base * config_.target_latency / round);
  }

  bool activate_next() {
    CfqQueue* best = async_.busy ? &async_ : nullptr;
    for (auto& q : sync_) {
      if (q && q->busy && (best == nullptr || q->key < best->key)) best = q.get();
    }
    if (best == nullptr) return false;
    active_ = best;
    slice_end_ = kNoSlice;  // the slice starts with the queue's first dispatch
    slice_started_ = false;
    best->dispatched_in_slice = 0;
    best->fifo_checked = false;
    return true;
  }

  // The active queue leaves service; if it still has requests it goes to the
  // back of the service tree.
  void expire_active() {
    CfqQueue& q = *active_;
    active_ = nullptr;
    idle_timer_.cancel();
    const sim::Time now = host_.simulator().now();
    if (q.queued > 0) {
      q.key = now + (q.sync ? 0 : (busy_count_ - 1) * kAsyncKeyPenalty);
    } else if (q.busy) {
      q.busy = false;
      --busy_count_;
    }
  }

  // cfq_may_dispatch.
  bool may_dispatch(const CfqQueue& q) const {
    if (q.sync && idle_allowed(q) && async_in_flight_ > 0) return false;  // drain async writes first
    if (!q.sync && sync_in_flight_ > 0) return false;
    const int quantum = static_cast<int>(config_.quantum);
    int limit = std::max(quantum / 2, 1);
    if (q.dispatched >= limit) {
      if (busy_count_ > 1) {
        if (q.dispatched >= quantum) return false;
        limit = quantum;
      } else {
        limit = 1 << 30;
      }
    }
    if (!q.sync) {
      const sim::Time now = host_.simulator().now();
      int depth = static_cast<int>((now - last_delayed_sync_) / std::max<sim::Duration>(config_.slice_sync, 1));
      if (depth == 0 && q.dispatched == 0) depth = 1;
      limit = std::min(limit, depth);
    }
    return q.dispatched < limit;
  }

  // cfq_check_fifo once per slice, else C-LOOK from the queue's position.
  Request& choose(CfqQueue& q) {
    if (!q.fifo_checked) {
      q.fifo_checked = true;
      if (q.fifo.front().fifo_time <= host_.simulator().now()) return q.fifo.front();
    }
    auto it = q.sorted.lower_bound(q.position);
    if (it == q.sorted.end()) it = q.sorted.begin();
    return *it;
  }

  void idle_expired() {
    if (active_ != nullptr && active_->queued == 0) expire_active();
    host_.kick();
  }

  const OsConfig& config_;
  ElevatorHost& host_;
  sim::Timer idle_timer_;
  CfqQueue async_;
  std::vector<std::unique_ptr<CfqQueue>> sync_;  // by pid
  CfqQueue* active_ = nullptr;
  static constexpr sim::Time kNoSlice = INT64_MAX;
  sim::Time slice_end_ = 0;
  bool slice_started_ = false;
  int busy_count_ = 0;
  int sync_in_flight_ = 0;
  int async_in_flight_ = 0;
  sim::Time last_delayed_sync_ = -1000 * sim::kSecond;
  std::size_t count_ = 0;
};

}  // namespace

std::unique_ptr<Elevator> make_cfq(const OsConfig& config, ElevatorHost& host) {
  return std::make_unique<Cfq>(config, host);
}

}  // namespace ckptsim::os
