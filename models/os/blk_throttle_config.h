// models/os/blk_throttle_config.h
//
// The limits of blk-throttle for one block device, as cgroup v1's
// blkio.throttle.{read,write}_{bps,iops}_device, cgroup v2's io.max
// (rbps= wbps= riops= wiops=) and systemd's IO{Read,Write}{IOPS,Bandwidth}Max=
// set them (block/blk-throttle.c tg_set_conf / tg_set_limit). 0 = no limit,
// as writing 0 in v1 or "max" in v2 removes one. The model is blk_throttle.h.
#pragma once

#include <cstdint>

#include "sim/time.h"

namespace ckptsim::os {

struct BlkThrottleConfig {
  std::int64_t read_iops = 0;   // bios per second
  std::int64_t write_iops = 0;  // bios per second; cache flushes are writes
  sim::Bytes read_bps = 0;      // bytes per second
  sim::Bytes write_bps = 0;

  // blk_throtl_init runs only once a limit is written: no limit, no throttle.
  bool enabled() const { return read_iops > 0 || write_iops > 0 || read_bps > 0 || write_bps > 0; }
};

}  // namespace ckptsim::os
