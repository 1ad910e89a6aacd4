// models/disk/hdd.h
//
// A hard disk drive: one arm over a spinning stack of platters, a command
// queue the firmware reorders, and an optional volatile write-back cache
// (docs/reference/os-disk-model.md 4.1-4.5; DiskSim's mech_g1 / disk modules, Ruemmler and
// Wilkes 1994).
//
// Servicing a media command: firmware overhead (t_cmd; a command becomes
// eligible t_cmd after it arrives, which overlaps with the mechanism serving
// others when the queue is deep), positioning (seek or head switch, write
// settle, rotational wait: hdd_head.h), then transfer at the zone's media
// rate with a head switch per track crossed (hdd_geometry.h).
//
// Queue: up to queue_depth commands (NCQ / SAS tags). Whenever the mechanism
// is free the firmware picks, among eligible commands, the one with the
// shortest positioning time (SPTF) from the predicted head state, and weighs
// it against the next destage; a command older than `aging` goes first. With
// one command queued this is FCFS.
//
// Read-ahead: after a media read the head keeps reading consecutive sectors
// (up to read_segment) while no other command needs it (hdd_readahead.h).
//
// Write cache (write_cache = true, the WCE bit of SCSI mode page 08h / ATA
// SET FEATURES 02h): a write is accepted at link speed if the dirty space
// and the extent count allow (hdd_write_cache.h; write_cache_extents is
// DiskSim's "maximum number of write segments", mode page 08h's number of
// cache segments), else it waits, holding its tag. Dirty extents are
// destaged when no host media command is eligible, competing with host
// commands on positioning time once the cache is half full, and exclusively
// while writes wait for space or a FLUSH is pending. FLUSH completes when
// every extent written before it is on the platters. FUA writes and all
// writes with the cache off go to the media before completing; FLUSH is then
// free. On SATA a FLUSH is not queued: it is accepted only by an idle drive
// and blocks the queue.
//
// Which extent is destaged next (destage_window, destage_order) is firmware
// policy: hdd_destage.h.
//
// command_setup: controller time per command that is never overlapped
// (DiskSim's per-request read / write hit and miss overheads, which DIXtrac
// measures by MTBRC, Schindler and Ganger 1999; Ruemmler and Wilkes 1994's
// "controller overhead"). A command answered at link speed (a cache hit, a
// write the cache takes, an empty FLUSH) completes command_setup later; a
// media operation, host command or destage alike, occupies the mechanism for
// command_setup before its seek starts, so the rotational wait is taken from
// then: a setup that makes the head miss the next sector on the same track
// costs a revolution. It adds to command_overhead (t_cmd), which a deep
// queue hides.
//
// Left out: multiple read segments and their LRU, defect management,
// thermal recalibration, power states, seek-time variance, prefetch on
// writes, partial overlaps between reads and dirty data.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "models/disk/completion_queue.h"
#include "models/disk/device.h"
#include "models/disk/device_config.h"
#include "models/disk/hdd_destage.h"
#include "models/disk/hdd_geometry.h"
#include "models/disk/hdd_head.h"
#include "models/disk/hdd_readahead.h"
#include "models/disk/hdd_write_cache.h"
#include "models/disk/seek_curve.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::disk {

class Hdd final : public Device {
 public:
  Hdd(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed, std::string_view name);
  ~Hdd() override;

  const DeviceInfo& info() const override { return info_; }
  bool can_accept(Op op) const override;
  void submit(Command& command) override;
  int outstanding() const override { return outstanding_; }

  // For tests: the mechanism's building blocks.
  const SeekCurve& seek_curve() const { return head_.seek_curve(); }
  const HddGeometry& geometry() const { return geometry_; }
  std::int64_t dirty_bytes() const { return cache_.dirty_bytes(); }
  // The write cache's dirty extents, destaging ones included (not on the platters until they end).
  void volatile_ranges(std::vector<SectorRange>& out) const override;
  // Rotational wait from time t until the byte's sector is under the head.
  sim::Duration rotational_wait(std::int64_t byte, sim::Time t) const { return head_.rotational_wait(byte, t); }

 private:
  // The host command the mechanism could serve next and what it costs to start it.
  struct Choice {
    Command* command = nullptr;
    sim::Duration positioning = 0;
  };

  void schedule();  // the mechanism is free: pick and start the next operation
  void start_host(Command& c, sim::Duration positioning);
  void start_destage(int extent, sim::Duration positioning);
  void mechanism_done();  // the current media operation ends now
  void admit_waiting_writes();
  void check_flushes();
  sim::Time link_transfer(std::int64_t bytes);  // serial interface: when the transfer ends
  void finished(Command& c);

  sim::Simulator& sim_;
  DeviceConfig config_;
  DeviceInfo info_;
  HddGeometry geometry_;
  HddHead head_;
  HddReadahead readahead_;
  HddWriteCache cache_;
  HddDestage destage_;
  CompletionQueue completions_;
  sim::Timer mechanism_;  // fires when the current media operation ends, or a queued command becomes eligible

  bool busy_ = false;        // mechanism serving a command or a destage
  int destage_extent_ = -1;  // the extent being destaged, if any

  CommandList queue_;            // host commands waiting for the mechanism, in arrival order
  CommandList cache_waiters_;    // writes waiting for dirty space, in arrival order
  CommandList flushes_;          // flushes waiting for the destage of older writes
  std::uint64_t write_seq_ = 0;  // sequence number of the newest accepted write
  int outstanding_ = 0;
  bool blocking_flush_ = false;  // a non-queued FLUSH is in the drive
  sim::Time link_free_ = 0;
};

}  // namespace ckptsim::disk
