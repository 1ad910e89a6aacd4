// models/disk/raid1.h
//
// Linux md RAID1 over identical members (drivers/md/raid1.c; docs/reference/os-disk-model.md
// section 6), seen by the block layer as one device.
//
// Writes are cloned to every member and complete when the slowest clone
// does, so write throughput is that of one member. A FLUSH goes to every
// member and completes when all have. Reads go to one member, chosen by
// read_balance.h (3.2's read_balance).
//
// A clone that its member cannot take yet waits in a per-member FIFO and is
// sent when that member completes something. Clones come from a pool sized
// at construction (queue depth x members): no allocation per command.
//
// This is the array as one device under ONE block queue (os.md_layering
// "device", the linux-modern preset, or any array behind a controller cache
// such as raid1-hdd-7200-bbwc). Linux 3.x layers md differently: md has no
// elevator, raid1d submits the write clones into each member's own queue;
// that layering is os::MdRaid1 (models/os/md_raid1.h, os.md_layering
// "raid1d" in the linux-3.0 / 3.2 presets), which the kernel builds over the
// members this object exposes (members(), member()) and which keeps this
// object only as the whole device (its info, power-loss accounting through
// volatile_ranges). Both share read_balance.h. md_raid1.h says which
// scenario gets which.
// Left out here: the members' own block-layer queues and schedulers (the
// array sits directly on the member devices), raid1d and its pending list,
// the write-intent bitmap, resync, degraded mode, the least-busy preference
// of later kernels, and md's own accounting (iostat on md shows no await on 3.2).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "models/disk/completion_queue.h"
#include "models/disk/device.h"
#include "models/disk/read_balance.h"
#include "sim/simulator.h"

namespace ckptsim::disk {

class Raid1 final : public Device, private CommandOwner {
 public:
  Raid1(sim::Simulator& sim, std::vector<std::unique_ptr<Device>> members);
  ~Raid1() override;

  const DeviceInfo& info() const override { return info_; }
  bool can_accept(Op op) const override;
  void submit(Command& command) override;
  int outstanding() const override { return outstanding_; }

  Device& member(int index) override { return *members_[static_cast<std::size_t>(index)]; }
  // A block held volatile by either member: after a power loss md resyncs from
  // one member, which may be the one that lost it, so both must have it on media.
  void volatile_ranges(std::vector<SectorRange>& out) const override {
    for (const auto& m : members_) m->volatile_ranges(out);
  }
  int members() const override { return static_cast<int>(members_.size()); }
  // Reads sent to each member so far.
  std::int64_t reads_sent(int index) const { return read_balance_.reads_sent(index); }

 private:
  // A member's copy of a command. device_tag belongs to the device that
  // holds a command, so the clone finds its parent through its own fields.
  struct Clone : Command {
    Command* parent = nullptr;
    int member = 0;
  };

  void send(Clone& clone);
  void dispatch_waiting(int member);
  void command_completed(Command& clone) override;
  void finished(Command& parent);

  sim::Simulator& sim_;
  std::vector<std::unique_ptr<Device>> members_;
  DeviceInfo info_;

  std::vector<Clone> clones_;
  std::vector<Clone*> free_clones_;
  std::vector<CommandList> waiting_;  // per member: clones it could not take yet
  ReadBalance read_balance_;
  int outstanding_ = 0;
  bool blocking_flush_ = false;
};

}  // namespace ckptsim::disk
