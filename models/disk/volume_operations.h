// models/disk/volume_operations.h
//
// How a cloud provider counts a volume's I/O operations, the unit its IOPS
// limit is in: AWS EBS, "Amazon EBS I/O characteristics and monitoring".
// An SSD-backed volume (gp2, gp3, io1, io2) counts each I/O of up to 256 KiB
// as one operation and splits a larger one into 256 KiB operations (a
// 1,024 KiB write is 4); an HDD-backed one (st1, sc1) does so up to 1,024 KiB.
// Small I/Os that are physically sequential are merged into one operation up
// to that size: 8 sequential 32 KiB writes are 1 operation, 8 random ones 8.
//
// Sequential here means: the command starts at the sector where the
// previous command (in the order the volume received them) ended, with the
// same direction. The rest of the running operation's room takes it at no
// cost; what does not fit opens new operations.
//
// Left out: any time window for merging (the documentation gives none: two
// adjacent writes seconds apart still merge here). The Azure and GCP presets
// are counted by this rule too: their pages give IOPS for I/O up to 256 KiB
// and say nothing of merging.
#pragma once

#include <cstdint>

#include "models/disk/device.h"

namespace ckptsim::disk {

inline constexpr std::int64_t kSsdVolumeOperation = 256 * 1024;
inline constexpr std::int64_t kHddVolumeOperation = 1024 * 1024;

class VolumeOperations {
 public:
  explicit VolumeOperations(std::int64_t operation_bytes) : operation_bytes_(operation_bytes) {}

  // The operations `command` adds to the count (0 when it merges into the
  // running one). A flush is no operation.
  std::int64_t count(const Command& command) {
    if (command.op == Op::Flush || command.bytes <= 0) return 0;
    std::int64_t bytes = command.bytes;
    const bool sequential = command.op == last_op_ && command.sector == end_sector_ && room_ > 0;
    end_sector_ = command.end_sector();
    last_op_ = command.op;
    if (sequential) {
      const std::int64_t merged = bytes < room_ ? bytes : room_;
      room_ -= merged;
      bytes -= merged;
      if (bytes == 0) return 0;
    }
    const std::int64_t operations = (bytes + operation_bytes_ - 1) / operation_bytes_;
    room_ = operations * operation_bytes_ - bytes;
    return operations;
  }

 private:
  std::int64_t operation_bytes_;
  Op last_op_ = Op::Flush;
  std::int64_t end_sector_ = -1;
  std::int64_t room_ = 0;  // bytes the running operation can still take
};

}  // namespace ckptsim::disk
