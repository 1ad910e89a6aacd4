// models/os/direct_io_bench.h
//
// fio-like jobs through the block layer with O_DIRECT (no page cache): what
// `ckptsim devbench` runs and what the device calibration tests measure.
//
// Random jobs keep iodepth 8 kB bios outstanding at uniform, block-aligned
// offsets of the span, one process per slot. Sequential jobs are one stream
// (qd1) that submits its bios the way a buffered stream reaches the block
// layer: a plugged batch of contiguous 8 kB bios (512 kB), merged into
// requests of up to max_sectors_kb, then waits for the batch; latency is
// still counted per 8 kB bio. Each job runs for `runtime` of simulated time
// after a `ramp`, then drains. A job with flush_each sends a cache flush
// after each write has completed and waits for it before the next, as fio's
// fdatasync=1 does on a preallocated file (ext4's fdatasync of an overwrite
// has no metadata to journal: only blkdev_issue_flush); its IOPS count
// write-and-flush cycles, its latencies the writes alone, as fio's do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/os/block_queue.h"
#include "models/os/file_system.h"
#include "sim/simulator.h"

namespace ckptsim::os {

struct DirectJob {
  std::string name;
  bool write = false;
  bool random = true;
  int iodepth = 1;
  sim::Bytes block = kBlockBytes;
  sim::Bytes span = 0;  // bytes from sector 0; 0 = the whole device
  sim::Duration ramp = 500 * sim::kMillisecond;
  sim::Duration runtime = 3 * sim::kSecond;
  int batch = 64;           // sequential: bios per plugged batch
  bool flush_each = false;  // a cache flush after each completed write (fio's fdatasync=1)
};

struct DirectJobResult {
  std::string name;
  std::int64_t ios = 0;  // completed in the measured window
  double iops = 0;
  double mb_per_s = 0;
  double p50_ms = 0;
  double p99_ms = 0;
  int max_in_flight = 0;  // the most requests the device held at once
};

// Runs `job` on `queue` from the simulator's current time, through
// `throttle` (blk-throttle above that queue) when given; returns when its
// last I/O has completed.
DirectJobResult run_direct_job(sim::Simulator& sim, BlockQueue& queue, const DirectJob& job, std::uint64_t seed,
                               BlockDevice* throttle = nullptr);

}  // namespace ckptsim::os
