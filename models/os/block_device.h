// models/os/block_device.h
//
// What the kernel submits a volume's bios to: the make_request side of a
// struct request_queue (generic_make_request, blk_finish_plug,
// blkdev_issue_flush, bdi_write_congested, /proc/diskstats). Two kinds sit
// behind it, as in Linux 3.x:
//   BlockQueue  a request-based queue with an elevator over one device
//               (or over a whole array seen as one device, os.md_layering "device");
//   MdRaid1     md RAID1, bio-based, with no elevator of its own, over one
//               BlockQueue per member (os.md_layering "raid1d").
#pragma once

#include <cstdint>

#include "models/disk/device.h"
#include "models/os/bio.h"
#include "models/os/diskstats.h"
#include "models/os/io_layer.h"
#include "sim/process.h"
#include "sim/state_clock.h"

namespace ckptsim::os {

struct Plug;

class BlockDevice {
 public:
  virtual ~BlockDevice() = default;

  // The largest request, in sectors (queue limits: a bio grows up to it).
  virtual std::int64_t max_sectors() const = 0;
  // submit_bio as a task: may sleep (request pool, md's pending limit), in
  // the submitter's layers (`layers`: its clock, if anyone keeps one).
  virtual sim::Task<> submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers = nullptr) = 0;
  // blk_finish_plug / flush on sleep.
  virtual void unplug(Plug& plug) = 0;
  // blkdev_issue_flush: returns once a cache flush issued after the call has completed.
  virtual sim::Task<> flush_cache() = 0;
  // The PREFLUSH / FUA of a REQ_META bio (jbd2's commit record): the same
  // flush, but part of a bio blk-throttle has already charged (blk_throttle.h).
  virtual sim::Task<> meta_flush_cache() { return flush_cache(); }
  // bdi_write_congested, as fadvise and writeback consult it.
  virtual bool write_congested() const = 0;
  // The diskstats that system.csv's iostat columns show for this volume.
  virtual DiskStats stats() const = 0;
  // Sectors written by completed writes of this volume (md: once per array write).
  virtual std::int64_t sectors_written() const = 0;
  // The elevator and nr_requests reported for this volume.
  virtual const char* scheduler() const = 0;
  virtual int nr_requests() const = 0;
  // The device as a whole (its cache and volatile ranges, for power loss).
  virtual const disk::Device& device() const = 0;
};

}  // namespace ckptsim::os
