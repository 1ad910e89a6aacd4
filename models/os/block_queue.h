// models/os/block_queue.h
//
// The request queue of one block device (block/blk-core.c and blk-flush.c on
// 3.x, blk-mq on modern kernels): bios become requests, requests go through
// an elevator to the device's command queue.
//
// - Merging: a bio joins a request of its direction that ends where it
//   starts (back merge) or starts where it ends (front merge), first among
//   the task's plugged requests, then among those in the elevator, while the
//   result stays within max_sectors_kb; two queued requests that become
//   adjacent are merged too. Each merge counts in rrqm/s, wrqm/s.
// - Plugging: a task inside a plugged section (one writeback pass, an
//   fsync's write phase, a readahead) keeps its new requests in its Plug;
//   they enter the elevator sorted by sector when it unplugs, is about to
//   sleep, or holds more than 16.
// - Request pool: legacy queues have a sync and an async pool of
//   nr_requests each, blk-mq one tag pool. A request holds its slot from
//   allocation to completion; when its pool is full a submitter sleeps, FIFO,
//   and is handed the next freed slot. Congestion (7/8 full) is visible to
//   fadvise.
// - Dispatch: whenever the device can take a command, the elevator gives the
//   next request.
// - Flush: a cache flush is coalesced (at most one in flight, later callers
//   share the next one), bypasses the elevator, and on a device without
//   queued flushes (SATA) waits for the device queue to drain while nothing
//   else is dispatched. A device without a volatile cache needs none.
//
// Left out: the "batcher" allowance above nr_requests, wbt, request
// priorities, FUA on data writes, segment limits.
#pragma once

#include <coroutine>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/disk/device.h"
#include "models/os/bio.h"
#include "models/os/block_device.h"
#include "models/os/diskstats.h"
#include "models/os/elevator.h"
#include "models/os/io_layer.h"
#include "models/os/os_config.h"
#include "sim/process.h"
#include "sim/simulator.h"
#include "sim/state_clock.h"
#include "sim/wait_list.h"

namespace ckptsim::os {

inline constexpr int kMaxPlugged = 16;  // BLK_MAX_REQUEST_COUNT

// A task's plug list (struct blk_plug), owned by the plugged section. Its
// requests may belong to several queues (md's reads go to the members);
// each queue's unplug takes its own.
struct Plug {
  RequestList requests;
  int count = 0;
  bool md_plugged = false;  // md's plug callback is on it (mddev_check_plugged)
  ~Plug() { requests.clear(); }  // a plug is always flushed before it ends
};

class BlockQueue final : public BlockDevice, public disk::CommandOwner, public ElevatorHost {
 public:
  // `scheduler`: an elevator, or Default for the block layer's default for this device.
  BlockQueue(sim::Simulator& sim, const OsConfig& config, disk::Device& device, Scheduler scheduler,
             std::string name);
  ~BlockQueue();
  BlockQueue(const BlockQueue&) = delete;
  BlockQueue& operator=(const BlockQueue&) = delete;

  const std::string& name() const { return name_; }
  const disk::Device& device() const override { return device_; }
  const char* scheduler() const override { return elevator_->name(); }
  const disk::DeviceInfo& device_info() const { return device_.info(); }
  int nr_requests() const override { return nr_requests_; }
  std::int64_t max_sectors() const override { return max_sectors_; }

  // submit_bio: merges the bio into a plugged or queued request, or starts a
  // request for it. False when its pool is full (or others wait for it):
  // then unplug, `co_await get_request(bio.sync)` and submit_into().
  bool try_submit(Bio& bio, Plug* plug);

  class RequestAwaiter {
   public:
    bool await_ready() noexcept;
    void await_suspend(std::coroutine_handle<> self) noexcept;
    Request& await_resume() noexcept { return *granted_; }

   private:
    friend class BlockQueue;
    struct Node : sim::Waiter {
      RequestAwaiter* awaiter = nullptr;
    };
    RequestAwaiter(BlockQueue& queue, bool sync) noexcept : queue_(queue), sync_(sync) {}
    BlockQueue& queue_;
    bool sync_;
    Request* granted_ = nullptr;
    Node node_;
  };
  // get_request_wait: a slot of the bio's class, waiting FIFO for one.
  RequestAwaiter get_request(bool sync) noexcept { return RequestAwaiter(*this, sync); }
  // Starts `rq` (from get_request) with `bio` as its only bio.
  void submit_into(Request& rq, Bio& bio, Plug* plug);
  // submit_bio as a task: try_submit, or flush the plug (the task is about to
  // sleep) and wait for a request of the bio's class, in the submitter's
  // request_slot layer (`layers`: its clock, if anyone keeps one).
  sim::Task<> submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers = nullptr) override;

  // blk_finish_plug / flush on sleep: this queue's plugged requests enter the elevator.
  void unplug(Plug& plug) override;

  struct FlushNode : sim::Waiter {
    std::uint64_t needed = 0;  // the flush generation that covers this caller
  };
  class FlushAwaiter {
   public:
    bool await_ready() noexcept;
    void await_suspend(std::coroutine_handle<> self) noexcept;
    void await_resume() const noexcept {}

   private:
    friend class BlockQueue;
    explicit FlushAwaiter(BlockQueue& queue) noexcept : queue_(queue) {}
    BlockQueue& queue_;
    FlushNode node_;
  };
  // blkdev_issue_flush: returns once a device cache flush issued after this
  // call has completed (at once without a volatile cache).
  FlushAwaiter flush() noexcept { return FlushAwaiter(*this); }
  sim::Task<> flush_cache() override { co_await flush(); }

  // Requests allocated and not completed, per class (legacy pools; blk-mq counts all as one).
  int allocated(bool sync) const { return allocated_[pool_of(sync)]; }
  // The class's pool is at least 7/8 full (blk_queue_congestion_threshold).
  bool congested(bool sync) const;
  bool write_congested() const override { return congested(false); }
  int waiting_for_requests(bool sync) const;

  // /proc/diskstats as of now.
  DiskStats stats() const override;
  // The most commands the device has held at once since this queue was made:
  // what a queue-depth-1 benchmark must keep at 1.
  int peak_device_outstanding() const { return peak_device_outstanding_; }
  std::int64_t sectors_written() const override { return stats_.write_sectors; }

  // ElevatorHost
  sim::Simulator& simulator() override { return sim_; }
  void kick() override { run_queue(); }

  // disk::CommandOwner
  void command_completed(disk::Command& command) override;

 private:
  int pool_of(bool sync) const { return legacy_ && !sync ? 1 : 0; }
  Request* alloc_request(bool sync);
  void free_request(Request& rq);
  void init_request(Request& rq, Bio& bio);
  bool can_merge(const Request& rq, const Bio& bio) const;
  bool merge_into_plug(Bio& bio, Plug& plug);
  bool merge_into_queue(Bio& bio);
  void back_merge(Request& rq, Bio& bio);
  void front_merge(Request& rq, Bio& bio);
  // Adjacent queued requests: `second` (starting where `first` ends) joins `first`.
  bool try_merge_requests(Request& first, Request& second);
  void merge_neighbours(Request& rq);
  void insert(Request& rq);
  void run_queue();
  void count_merge(const Bio& bio);

  sim::Simulator& sim_;
  const OsConfig& config_;
  disk::Device& device_;
  std::string name_;
  std::unique_ptr<Elevator> elevator_;
  bool legacy_;
  int nr_requests_;
  std::int64_t max_sectors_;

  std::vector<std::unique_ptr<Request>> requests_;  // every request object, made once
  RequestList free_;
  int allocated_[2] = {0, 0};
  sim::WaitList<RequestAwaiter::Node> waiters_[2];
  int waiter_count_[2] = {0, 0};
  MergeIndex merge_index_;  // requests in the elevator, by start sector

  // Flush sequencing.
  disk::Command flush_command_;
  bool flush_in_flight_ = false;
  bool flush_wanted_ = false;       // a caller needs a flush not yet issued
  std::uint64_t flushes_issued_ = 0;
  std::uint64_t flushes_done_ = 0;
  sim::Time flush_started_ = 0;
  sim::WaitList<FlushNode> flush_waiters_;

  bool running_ = false;            // run_queue re-entry guard
  int peak_device_outstanding_ = 0;
  mutable DiskStats stats_;
};

}  // namespace ckptsim::os
