// models/os/backing_devices.h
//
// The kernel's backing devices: mm/backing-dev.c's bdi_list, one
// backing_dev_info (with its bdi_writeback, bdi_writeback.h) per block
// device the files live on: the data device, then the WAL device when the
// WAL has one of its own. Each bdi's block device is a request queue
// (block_queue.h) or, layered as Linux 3.x layers md, a raid1 array with a
// queue per member (md_raid1.h). An inode names its bdi by index (Inode::bdi),
// as i_sb->s_bdi does; wakeup_flusher_threads wakes every bdi's flusher.
// A device with blk-throttle limits has its BlkThrottle above the queue
// (blk_throttle.h): the bdi submits to the throttle.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "models/os/bdi_writeback.h"
#include "models/os/blk_throttle.h"
#include "models/os/file_system.h"
#include "models/os/md_raid1.h"
#include "sim/simulator.h"

namespace ckptsim::os {

class BackingDevices {
 public:
  // bdi_register: the data device's first. `md` is the bdi's md array when it
  // is one (below its throttle, if any), else null; `throttle` its blk-throttle, if limited.
  void add(std::unique_ptr<BdiWriteback> bdi, MdRaid1* md, BlkThrottle* throttle = nullptr) {
    bdis_.push_back(std::move(bdi));
    md_of_.push_back(md);
    throttle_of_.push_back(throttle);
    if (md != nullptr) mds_.push_back(md);
  }
  // The kernel threads: every bdi's flusher, then every md array's raid1d.
  void start(sim::Simulator& sim) {
    for (auto& bdi : bdis_) sim.spawn(bdi->flusher());
    for (MdRaid1* md : mds_) sim.spawn(md->raid1d());
  }
  // Before the page cache goes: the bdis' lists hold its inodes.
  void clear() { bdis_.clear(); }

  std::size_t size() const { return bdis_.size(); }
  std::size_t md_count() const { return mds_.size(); }
  BdiWriteback& at(std::size_t i) { return *bdis_[i]; }
  const BdiWriteback& at(std::size_t i) const { return *bdis_[i]; }
  // The bdi a volume's files are created on: the WAL's own device, if it has one.
  int index(Volume volume) const { return volume == Volume::Wal && bdis_.size() > 1 ? 1 : 0; }
  BdiWriteback& of(const Inode& inode) { return at(static_cast<std::size_t>(inode.bdi)); }
  const BdiWriteback& of(const Inode& inode) const { return at(static_cast<std::size_t>(inode.bdi)); }
  BlockDevice& queue(Volume volume) { return at(static_cast<std::size_t>(index(volume))).queue(); }
  const BlockDevice& queue(Volume volume) const { return at(static_cast<std::size_t>(index(volume))).queue(); }
  // The volume's md array when it is layered as Linux 3.x does (os.md_layering "raid1d"), else null.
  MdRaid1* md(Volume volume) { return md_of_[static_cast<std::size_t>(index(volume))]; }
  // The blk-throttle of bdi i, when its device has limits (os.blkio_throttle), else null.
  BlkThrottle* throttle(std::size_t i) const { return throttle_of_[i]; }
  // wakeup_flusher_threads(WB_REASON_TRY_TO_FREE_PAGES), as reclaim does.
  void wake_background() {
    for (auto& bdi : bdis_) bdi->wake_background();
  }

 private:
  std::vector<std::unique_ptr<BdiWriteback>> bdis_;
  std::vector<MdRaid1*> mds_;  // the md arrays among their queues
  std::vector<MdRaid1*> md_of_;  // per bdi
  std::vector<BlkThrottle*> throttle_of_;  // per bdi
};

}  // namespace ckptsim::os
