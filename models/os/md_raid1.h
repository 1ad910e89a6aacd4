// models/os/md_raid1.h
//
// md RAID1 as Linux 3.x layers it (drivers/md/raid1.c and md.c; read in
// 3.2.7 and 3.0.1): a bio-based device with no elevator, over one block
// queue (elevator, request pools) per member disk.
//
// Why there are two RAID1 models, and which a scenario gets: the array's
// mirroring, read balancing and flush fan-out are the same in both; what
// differs is where the block layer sits, and that decides who waits on which
// request pool and whom CFQ sees. With os.md_layering "raid1d" (the
// linux-3.0 and linux-3.2 presets) and a device whose top is a software
// array (mirrors > 1 without a controller cache: the raid1-hdd-7200 preset,
// the E1 host), the kernel builds this class over the array's member disks
// (disk::Device::members()). With "device" (linux-modern, where 3.6+
// submits plugged writes from the caller's unplug) or a controller that
// hides its disks (raid1-hdd-7200-bbwc), the array is disk::Raid1 seen as
// one device under ONE BlockQueue. This class keeps the disk::Raid1 object
// only as the whole device (its info, and its volatile ranges at power loss).
//
// - make_request, WRITE: when pending_count >= max_queued_requests the
//   writer wakes raid1d and sleeps on wait_barrier until pending_count drops
//   below it (3.1+; 3.0 has no limit). The bio is cloned per member, each
//   clone keeping REQ_SYNC, and the clones go on pending_bio_list
//   (pending_count counts clones, so 1024 is 512 bios on two members). A
//   writer inside a plugged section registers md's plug callback
//   (mddev_check_plugged: plug_cnt + 1, minus 1 and a raid1d wake-up when
//   the plug is flushed); raid1d is woken at once (no bitmap).
// - raid1d: under its own blk_plug, and only while no task holds md's plug
//   callback (plug_cnt == 0), flush_pending_writes takes the WHOLE pending
//   list, sets pending_count to 0, wakes the writers on wait_barrier, and
//   submits the clones in arrival order with generic_make_request into each
//   member's queue. raid1d is the only submitter of writes, so CFQ sees one
//   process (raid1d's sync queue for sync clones, the async queues and pool
//   for the rest). When a member's pool is full, raid1d sleeps in
//   get_request_wait and every clone behind it waits too, sync or async.
// - raid1_end_write_request / r1_bio_write_done: the master bio completes
//   when every clone has.
// - READ: read_balance (disk/read_balance.h) picks one member and the bio is
//   submitted there from the caller's context (CFQ sees the reader).
// - raid1_congested: write-congested while pending_count >= max_queued_requests
//   or while any member's queue is.
// - A cache flush (blkdev_issue_flush on md: md_flush_request, submit_flushes)
//   goes to every member at once and completes when all have.
//
// Writes are modelled as one array-wide bio each (no bad-block splits).
// iostat is reported for the first member (what `iostat -x sda` shows); the
// array's own write sectors feed the page-conservation check once per write.
// Left out: the write-intent bitmap (and write-behind), resync/recovery and
// their barrier (wait_barrier only as the pending-limit queue), degraded
// mode and read errors (raid1d's retry list), suspend ranges, md's own
// diskstats (iostat on md0 shows no await on 3.2), the modern layering
// (3.6+ submits plugged writes from the caller's unplug, raid1_unplug).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/disk/device.h"
#include "models/disk/read_balance.h"
#include "models/os/block_device.h"
#include "models/os/block_queue.h"
#include "models/os/file_system.h"
#include "models/os/os_config.h"
#include "models/os/r1bio.h"
#include "sim/condition.h"
#include "sim/event.h"
#include "sim/process.h"
#include "sim/simulator.h"

namespace ckptsim::os {

class MdRaid1 final : public BlockDevice, private BioOwner {
 public:
  // One block queue per member of `array` (a disk::Raid1), each with `scheduler`; raid1d runs as `raid1d_task`.
  MdRaid1(sim::Simulator& sim, const OsConfig& config, disk::Device& array, Scheduler scheduler, OsTask& raid1d_task);
  ~MdRaid1() override;
  MdRaid1(const MdRaid1&) = delete;
  MdRaid1& operator=(const MdRaid1&) = delete;

  // The raid1d kernel thread (md_thread running raid1d); the kernel spawns it once.
  sim::Process raid1d();

  // BlockDevice
  std::int64_t max_sectors() const override { return members_.front()->max_sectors(); }
  sim::Task<> submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers = nullptr) override;
  void unplug(Plug& plug) override;
  sim::Task<> flush_cache() override;
  bool write_congested() const override;
  DiskStats stats() const override { return members_.front()->stats(); }
  std::int64_t sectors_written() const override { return sectors_written_; }
  const char* scheduler() const override { return members_.front()->scheduler(); }
  int nr_requests() const override { return members_.front()->nr_requests(); }
  const disk::Device& device() const override { return array_; }

  int members() const { return static_cast<int>(members_.size()); }
  BlockQueue& member(int index) { return *members_[static_cast<std::size_t>(index)]; }
  int pending_count() const { return pending_count_; }
  // Writers asleep in make_request on max_queued_requests.
  std::size_t writers_waiting() const { return wait_barrier_.waiters(); }
  int raid1d_pid() const { return raid1d_.pid; }
  std::int64_t reads_sent(int index) const { return read_balance_.reads_sent(index); }

 private:
  // generic_make_request into a member's queue from a plugged context; a full
  // pool flushes the whole plug (schedule()) and sleeps for a request.
  sim::Task<> submit_to_member(int member, Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers);
  void flush_plug(Plug& plug);
  sim::Task<> flush_pending_writes(Plug& plug);
  sim::Process flush_member(BlockQueue& queue, int& remaining, sim::Event& done);
  void wakeup() { raid1d_wakeup_.set(); }  // md_wakeup_thread
  void bio_done(Bio& bio) override;
  void bio_dispatched(Bio& bio) override;

  sim::Simulator& sim_;
  disk::Device& array_;  // the array as one device: its info and volatile ranges
  OsTask& raid1d_;
  const std::int64_t max_queued_;
  std::vector<std::unique_ptr<BlockQueue>> members_;
  disk::ReadBalance read_balance_;

  BioList pending_bio_list_;
  int pending_count_ = 0;
  int plug_cnt_ = 0;
  sim::Condition wait_barrier_;
  sim::Event raid1d_wakeup_;

  R1BioPool r1bios_;
  std::int64_t sectors_written_ = 0;
};

}  // namespace ckptsim::os
