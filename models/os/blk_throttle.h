// models/os/blk_throttle.h
//
// blk-throttle, the bio rate limiter behind cgroup v1 blkio.throttle.*,
// cgroup v2 io.max and systemd's IO*Max= (block/blk-throttle.c, Linux
// 6.17/6.18; docs/reference/blk-throttle.md section 2). It sits where
// submit_bio_noacct calls blk_throtl_bio: above the request queue, its
// merging and its elevator, so it wraps the device's BlockDevice and sees
// bios, not requests.
//
// - Per direction a slice of HZ/10 (DFL_THROTL_SLICE_HD, 100 ms at HZ 250;
//   6.19 uses it for every device): the budget is limit x elapsed, in whole
//   slices (tg_within_iops_limit, tg_within_bps_limit). tg_update_slice
//   starts a new slice when the old one is used up and nothing is queued,
//   else extends it; throtl_trim_slice keeps at most about one slice of
//   unused budget (the carry-over), so a backlog is released in bursts of
//   limit/10 bios per slice.
// - One FIFO per direction ("throtl is FIFO"): a bio passes at once only when
//   its direction's queue is empty and its wait is 0; otherwise it waits
//   there and the submitter returns at once. It never sleeps here: only
//   whoever waits for the pages or the bio does (fsync, a flush's caller).
//   The pending timer releases due bios at whole jiffies, and kthrotld
//   submits them below under one plug (blk_throtl_dispatch_work_fn), where
//   they may merge and where a full request pool delays the ones behind.
// - What is counted: every bio once, whatever its size; bytes once. A bio
//   later merged into a request still counted one (merging comes after).
//   An empty cache flush (blkdev_issue_flush) is a write of 0 bytes, charged
//   and queued like any. REQ_META bios (jbd2's log blocks and its commit
//   record, whose PREFLUSH|FUA is part of that one bio) are charged and go
//   straight down (bio_issue_as_root_blkg). Splits: ckptsim's bios never
//   exceed the queue's max_sectors_kb, so no bio is split after the throttle.
// - All I/O of the device goes through one group: the recorded setup puts the
//   limit on the v1 root, where every task, the flusher and jbd2 live. So the
//   throttle caps the flusher's writeback, sync_file_range's, fsync's, the
//   WAL's and direct I/O alike. A cgroup v2 or systemd limit (which cannot
//   apply to the root) is taken as if it applied to all I/O of the device.
//
// Left out: the hierarchy of v2 groups and their round-robin dispatch (one
// group here), THROTL_GRP_QUANTUM's read/write interleaving in one jiffy
// (each direction has its own budget), discard, the 20 ms slice that 6.10-6.18
// used for non-rotational devices, and workqueue latency.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>

#include "models/os/blk_throttle_config.h"
#include "models/os/block_device.h"
#include "sim/event.h"
#include "sim/process.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::os {

// CONFIG_HZ of Debian's kernels and of this machine's: the throttle's clock ticks in jiffies.
inline constexpr std::int64_t kHz = 250;
inline constexpr sim::Duration kJiffy = sim::kSecond / kHz;
// throtl_slice: HZ/10.
inline constexpr std::int64_t kThrottleSliceJiffies = kHz / 10;

// What system.csv shows of one throttle.
struct BlkThrottleStats {
  std::int64_t queued = 0;        // bios waiting now, both directions
  std::int64_t charged_ios = 0;   // bios charged, as blkio.throttle.io_serviced counts them
  std::int64_t charged_bytes = 0;
  sim::Duration waited = 0;       // integral of queued over time: bio-nanoseconds
};

class BlkThrottle final : public BlockDevice {
 public:
  BlkThrottle(sim::Simulator& sim, const BlkThrottleConfig& config, std::unique_ptr<BlockDevice> lower);
  // Over a queue it does not own (devbench's rig).
  BlkThrottle(sim::Simulator& sim, const BlkThrottleConfig& config, BlockDevice& lower);
  ~BlkThrottle() override;
  BlkThrottle(const BlkThrottle&) = delete;
  BlkThrottle& operator=(const BlkThrottle&) = delete;

  // blk_throtl_bio: passes the bio down, or queues it and returns at once.
  sim::Task<> submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers = nullptr) override;
  // An empty PREFLUSH bio: one write IO, in the FIFO, then the lower queue's flush.
  sim::Task<> flush_cache() override;
  sim::Task<> meta_flush_cache() override { return lower_->meta_flush_cache(); }

  std::int64_t max_sectors() const override { return lower_->max_sectors(); }
  void unplug(Plug& plug) override { lower_->unplug(plug); }
  bool write_congested() const override { return lower_->write_congested(); }
  // iostat of the device counts from the request: it does not see the throttle's wait.
  DiskStats stats() const override { return lower_->stats(); }
  std::int64_t sectors_written() const override { return lower_->sectors_written(); }
  const char* scheduler() const override { return lower_->scheduler(); }
  int nr_requests() const override { return lower_->nr_requests(); }
  const disk::Device& device() const override { return lower_->device(); }

  BlockDevice& lower() { return *lower_; }
  const BlockDevice& lower() const { return *lower_; }
  BlkThrottleStats stats_now() const;

 private:
  enum Dir : std::uint8_t { kRead, kWrite };
  // A queued bio, or an empty flush (bio null) whose caller waits on `released`.
  struct Queued {
    Bio* bio = nullptr;
    sim::Event* released = nullptr;
    std::int64_t bytes = 0;
    bool bytes_charged = false;
  };
  // One direction of the group: limits, slice and FIFO (struct throtl_grp's [rw] fields).
  struct Direction {
    std::int64_t iops = 0;
    std::int64_t bps = 0;
    std::int64_t slice_start = 0;  // jiffies
    std::int64_t slice_end = 0;
    std::int64_t io_disp = 0;
    std::int64_t bytes_disp = 0;
    std::deque<Queued> fifo;
    bool limited() const { return iops > 0 || bps > 0; }
  };

  std::int64_t jiffies() const { return sim_.now() / kJiffy; }
  bool slice_used(const Direction& d) const;
  void start_new_slice(Direction& d);
  void extend_slice(Direction& d, std::int64_t target);
  void trim_slice(Direction& d);
  std::int64_t iops_wait(const Direction& d) const;
  std::int64_t bytes_wait(const Direction& d, std::int64_t bytes) const;
  // tg_dispatch_time: the bytes wait, then (bytes charged) the IO wait; extends the slice by it.
  std::int64_t dispatch_time(Direction& d, Queued& q);
  void charge(Direction& d, Queued& q, std::int32_t ios);
  void enqueue(Direction& d, Queued q);
  // The pending timer: releases every due head, re-arms at the next.
  void dispatch();
  void arm_timer();
  void count_queued(std::int64_t delta);
  sim::Process kthrotld();

  sim::Simulator& sim_;
  std::unique_ptr<BlockDevice> owned_;
  BlockDevice* lower_;
  std::array<Direction, 2> dirs_;
  sim::Timer pending_timer_;
  std::deque<Queued> released_;  // for kthrotld, in release order
  sim::Event kthrotld_wakeup_;
  BlkThrottleStats stats_;
  sim::Time queued_since_ = 0;  // last change of stats_.queued
};

}  // namespace ckptsim::os
