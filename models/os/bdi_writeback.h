// models/os/bdi_writeback.h
//
// One backing device's writeback (struct backing_dev_info / bdi_writeback,
// fs/fs-writeback.c and mm/page-writeback.c, 3.x): the dirty-inode lists,
// the flusher thread, the write-bandwidth estimate, and the device's block
// queue. The writing of an inode's pages (write_cache_pages) belongs to the
// page cache's side: the flusher asks its WritebackHost. The dirty limits
// are the throttle's (dirty_throttle.h): the flusher asks it whether Dirty is
// over the background threshold and reads its global_dirty_limit.
//
// The flusher is bdi_writeback_thread / wb_writeback: queued work first,
// then kupdate every dirty_writeback_centisecs (inodes whose dirtied_when is
// older than dirty_expire_centisecs), then background writeback while Dirty
// is above the background threshold. Inodes move b_dirty -> b_io (expired
// ones, oldest first) -> written a chunk at a time -> b_more_io (chunk used
// up, still dirty) or back to b_dirty (could not progress) or off the lists
// (clean). Expiry is per inode: a file that stays dirty keeps its old
// dirtied_when, so kupdate writes it at every pass.
//
// Left out: s_max_writeback_mb_bump, sync(2) work, the per-bdi share of the
// background threshold (the global Dirty is compared), waiting on I_SYNC of
// b_more_io inodes (the pass ends instead).
#pragma once

#include <coroutine>
#include <cstdint>
#include <deque>
#include <memory>

#include "models/os/block_device.h"
#include "models/os/block_queue.h"
#include "models/os/kernel_report.h"
#include "models/os/os_config.h"
#include "models/os/page_cache.h"
#include "sim/process.h"
#include "sim/sampler.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::os {

class DirtyThrottle;

// Who started the writeback of a page (summary and tests).
enum class WbReason : std::uint8_t {
  Kupdate,
  Background,
  Reclaim,
  Fsync,
  SyncFileRange,
  Throttle,
  Fadvise,
  Journal,
  Count
};

// struct writeback_control: what one write_pages call writes back.
struct WritebackControl {
  SyncMode sync_mode = SyncMode::None;
  std::int64_t nr_to_write = INT64_MAX;  // blocks
  std::int64_t range_start = 0;          // blocks [range_start, range_end) unless range_cyclic
  std::int64_t range_end = INT64_MAX;
  bool range_cyclic = false;  // from the inode's writeback_index to its end, then from 0
  WbReason reason = WbReason::Kupdate;
  int pid = 0;  // whose I/O it is
};

// What the flusher needs of the kernel that owns the page cache.
class WritebackHost {
 public:
  // write_cache_pages: start writeback of the inode's dirty blocks as `wbc` says; returns blocks started.
  virtual sim::Task<std::int64_t> write_pages(Inode& inode, const WritebackControl& wbc, Plug& plug) = 0;

 protected:
  ~WritebackHost() = default;
};

class BdiWriteback {
 public:
  BdiWriteback(sim::Simulator& sim, const OsConfig& config, const PageCache& cache, WritebackHost& host,
               const DirtyThrottle& limits, std::unique_ptr<BlockDevice> queue, double write_bw);
  ~BdiWriteback();
  BdiWriteback(const BdiWriteback&) = delete;
  BdiWriteback& operator=(const BdiWriteback&) = delete;

  // bdi_writeback_thread; the kernel spawns it once.
  sim::Process flusher();

  // The volume's block device: a request queue, or md over its members' queues.
  BlockDevice& queue() noexcept { return *queue_; }
  const BlockDevice& queue() const noexcept { return *queue_; }

  // __mark_inode_dirty's list part: the first dirty page puts the inode on b_dirty.
  void inode_dirtied(Inode& inode);
  // A block's writeback completed on this device (for the bandwidth estimate).
  void block_written() noexcept { ++written_; }
  // Wake the flusher for background writeback (reclaim, throttled writers).
  void wake_background();
  // bdi_update_write_bandwidth, from writeback or a throttled writer that started at `start_time`.
  void update_bandwidth(sim::Time start_time);
  // writeback_sb_inodes: one pass over b_io (filled from b_more_io and the expired part of b_dirty),
  // a chunk per inode; returns blocks written. Throttled writers (< 3.2) call it too.
  // `work_start`: when the caller's writeback work began.
  sim::Task<std::int64_t> writeback_inodes(std::int64_t nr, sim::Time older_than, WbReason reason, int pid,
                                           sim::Time work_start);

  bool busy() const noexcept { return busy_; }            // the flusher is running a work item
  double write_bw() const noexcept { return write_bw_; }  // blocks per second

  // iostat -x of the device each interval: system.csv's columns `prefix`r_s ... `prefix`util_pct.
  void add_iostat_columns(sim::Table& system, const std::string& prefix);
  // The device's totals at the end of the run.
  KernelReport::Device report(std::string name) const;

 private:
  struct WbWork {
    std::int64_t nr_pages = 0;
    WbReason reason = WbReason::Background;
  };
  struct FlusherSleep {
    BdiWriteback& bdi;
    sim::Time until;  // < 0: until woken
    bool await_ready() const noexcept { return false; }
    void await_suspend(std::coroutine_handle<> h) {
      bdi.sleeper_ = h;
      if (until >= 0) bdi.wake_timer_.schedule_at(until);
    }
    void await_resume() const noexcept {}
  };

  void wake();
  sim::Task<std::int64_t> wb_writeback(WbWork work);
  void queue_io(sim::Time older_than);
  void requeue_inode(Inode& inode, std::int64_t written, std::int64_t chunk);
  void list_move(Inode& inode, WbList to);
  std::int64_t writeback_chunk(std::int64_t nr_left) const;

  sim::Simulator& sim_;
  const OsConfig& config_;
  const PageCache& cache_;
  WritebackHost& host_;
  const DirtyThrottle& limits_;
  std::unique_ptr<BlockDevice> queue_;
  InodeList b_dirty_, b_io_, b_more_io_;  // oldest at the front
  std::deque<WbWork> work_list_;
  bool background_wanted_ = false;
  bool busy_ = false;
  sim::Time last_old_flush_ = 0;
  std::coroutine_handle<> sleeper_;
  sim::Timer wake_timer_;
  // Write bandwidth (bdi_update_write_bandwidth), blocks/s.
  std::int64_t written_ = 0;  // blocks whose writeback completed
  std::int64_t bw_written_stamp_ = 0;
  sim::Time bw_time_stamp_ = 0;
  double write_bw_;
  DiskStats last_stats_;  // at the previous system.csv interval
};

}  // namespace ckptsim::os
