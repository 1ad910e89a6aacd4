// models/disk/device.h
//
// What the block layer sees of a storage device: a command queue of a given
// depth (NCQ / SAS / NVMe tags) that accepts reads, writes and cache flushes
// and completes each one later, in whatever order the device chooses.
//
// This is the seam between models/os (request queue, scheduler, merging,
// plugging) and models/disk (HDD mechanism, SSD units, RAID1, a controller's
// write cache). The block layer dispatches a command only while the device
// has a free slot (can_accept()); a device that does not queue flushes
// (SATA) accepts a Flush only when it is idle and nothing else until the
// flush completes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <boost/intrusive/list_hook.hpp>

#include "sim/time.h"

namespace ckptsim::disk {

inline constexpr std::int64_t kSectorBytes = 512;

enum class Op : std::uint8_t { Read, Write, Flush };

class Command;

// Told when a command completes (from a simulator event, never from submit()).
class CommandOwner {
 public:
  virtual void command_completed(Command& command) = 0;

 protected:
  ~CommandOwner() = default;
};

// One command as the device receives it: a block-layer request after merging.
// The object belongs to the submitter and must stay alive until completion.
class Command {
 public:
  Op op = Op::Read;
  std::int64_t sector = 0;  // first 512-byte sector
  std::int64_t bytes = 0;   // 0 for a Flush
  bool fua = false;         // forced unit access: on stable media before completion
  CommandOwner* owner = nullptr;

  // Filled by the device: when it received and completed the command.
  sim::Time device_start = 0;
  sim::Time device_end = 0;
  // Free for the device's own bookkeeping while it holds the command (a
  // flush's write sequence number, the clones an array still waits for).
  std::uint64_t device_tag = 0;

  // For the device's own queues (a command is in at most one at a time).
  // normal_link: when a run ends, commands still queued in a device are
  // destroyed with their owners, in whatever order the layers go away.
  using Hook = boost::intrusive::list_member_hook<boost::intrusive::link_mode<boost::intrusive::normal_link>>;
  Hook device_hook;

  std::int64_t end_sector() const { return sector + bytes / kSectorBytes; }
};

struct DeviceInfo {
  int queue_depth = 1;          // commands outstanding at once
  bool queued_flush = true;     // false: a Flush waits for an empty queue and blocks it (SATA)
  bool volatile_cache = false;  // true: writes may complete before reaching stable media
  bool rotational = false;      // for the kernel's defaults (scheduler, wbt target)
  std::int64_t capacity_bytes = 0;
};

// A run of sectors [sector, sector + sectors).
struct SectorRange {
  std::int64_t sector = 0;
  std::int64_t sectors = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;
  // True when submit() may be called now with a command of kind `op`.
  virtual bool can_accept(Op op) const = 0;
  // Starts a command; its owner is told on completion.
  virtual void submit(Command& command) = 0;
  // Commands received and not yet completed.
  virtual int outstanding() const = 0;
  // Power loss: the ranges whose writes this device acknowledged but holds
  // only in a volatile cache, so that they would be lost if power failed now
  // (appended to `out`, in no order). A device without one adds nothing.
  virtual void volatile_ranges(std::vector<SectorRange>& out) const { (void)out; }
  // A software RAID1 array's member disks (/sys/block/mdX/slaves), which md
  // may drive through queues of their own; a single device, or a controller
  // that hides its disks, has none.
  virtual int members() const { return 0; }
  virtual Device& member(int index) {
    (void)index;
    throw std::logic_error("device: not an array, it has no members");
  }
};

}  // namespace ckptsim::disk
