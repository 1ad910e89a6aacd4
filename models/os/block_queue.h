// models/os/block_queue.h
//
// The request queue of one block device (block/blk-core.c on 3.x, blk-mq on
// modern kernels): bios become requests, requests go through an elevator to
// the device's command queue. The queue composes the parts Linux keeps in
// separate files, each its own owner:
//
// - plug.h           a task's plug list (blk_plug);
// - request_pool.h   the request pool and its sleepers (get_request_wait), congestion;
// - request_merge.h  bio and request merging (blk-merge.c, elv_merge);
// - flush_sequence.h coalesced cache flushes (blk-flush.c);
// - io_accounting.h  /proc/diskstats (blk_account_io_*);
// - elevator.h       the I/O scheduler.
//
// What stays here is the request's way through them: submit_bio (merge, or
// allocate and start a request, in the plug or straight into the elevator),
// unplugging (blk_flush_plug_list: sorted by sector, each entering the
// elevator), dispatch whenever the device can take a command
// (__blk_run_queue / blk_mq_run_hw_queue, a pending flush first), and
// completion (bios ended, slot freed, sleepers woken, diskstats).
//
// Left out: wbt, request priorities, FUA on data writes, segment limits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "models/disk/device.h"
#include "models/os/bio.h"
#include "models/os/block_device.h"
#include "models/os/diskstats.h"
#include "models/os/elevator.h"
#include "models/os/flush_sequence.h"
#include "models/os/io_accounting.h"
#include "models/os/io_layer.h"
#include "models/os/os_config.h"
#include "models/os/plug.h"
#include "models/os/request_merge.h"
#include "models/os/request_pool.h"
#include "sim/process.h"
#include "sim/simulator.h"
#include "sim/state_clock.h"

namespace ckptsim::os {

class BlockQueue final : public BlockDevice, public disk::CommandOwner, public ElevatorHost {
 public:
  // `scheduler`: an elevator, or Default for the block layer's default for this device.
  BlockQueue(sim::Simulator& sim, const OsConfig& config, disk::Device& device, Scheduler scheduler, std::string name);
  ~BlockQueue();
  BlockQueue(const BlockQueue&) = delete;
  BlockQueue& operator=(const BlockQueue&) = delete;

  const std::string& name() const { return name_; }
  const disk::Device& device() const override { return device_; }
  const char* scheduler() const override { return elevator_->name(); }
  const disk::DeviceInfo& device_info() const { return device_.info(); }
  int nr_requests() const override { return pool_.nr_requests(); }
  std::int64_t max_sectors() const override { return merge_.max_sectors(); }

  // submit_bio: merges the bio into a plugged or queued request, or starts a
  // request for it. False when its pool is full (or others wait for it):
  // then unplug, `co_await get_request(bio.sync)` and submit_into().
  bool try_submit(Bio& bio, Plug* plug);
  // get_request_wait: a slot of the bio's class, waiting FIFO for one.
  sim::Task<Request&> get_request(bool sync) { return pool_.get(sync); }
  // Starts `rq` (from get_request) with `bio` as its only bio.
  void submit_into(Request& rq, Bio& bio, Plug* plug);
  // submit_bio as a task: try_submit, or flush the plug (the task is about to
  // sleep) and wait for a request of the bio's class, in the submitter's
  // request_slot layer (`layers`: its clock, if anyone keeps one).
  sim::Task<> submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers = nullptr) override;

  // blk_finish_plug / flush on sleep: this queue's plugged requests enter the elevator.
  void unplug(Plug& plug) override;

  // blkdev_issue_flush: returns once a device cache flush issued after this
  // call has completed (at once without a volatile cache).
  sim::Task<> flush_cache() override;

  // The class's pool is at least 7/8 full (blk_queue_congestion_threshold).
  bool congested(bool sync) const { return pool_.congested(sync); }
  bool write_congested() const override { return congested(false); }

  // /proc/diskstats as of now.
  DiskStats stats() const override { return accounting_.snapshot(sim_.now()); }
  // The most commands the device has held at once since this queue was made:
  // what a queue-depth-1 benchmark must keep at 1.
  int peak_device_outstanding() const { return peak_device_outstanding_; }
  std::int64_t sectors_written() const override { return accounting_.write_sectors(); }

  // ElevatorHost
  sim::Simulator& simulator() override { return sim_; }
  void kick() override { run_queue(); }

  // disk::CommandOwner
  void command_completed(disk::Command& command) override;

 private:
  void init_request(Request& rq, Bio& bio);
  void insert(Request& rq);
  void run_queue();

  sim::Simulator& sim_;
  disk::Device& device_;
  std::string name_;
  std::unique_ptr<Elevator> elevator_;
  RequestPool pool_;
  IoAccounting accounting_;
  RequestMerge merge_;
  FlushSequence flushes_;
  bool running_ = false;  // run_queue re-entry guard
  int peak_device_outstanding_ = 0;
};

}  // namespace ckptsim::os
