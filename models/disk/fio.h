// models/disk/fio.h
//
// A small fio for raw devices: jobs that keep queue_depth commands
// outstanding against a Device (no page cache, no scheduler, as fio with
// direct=1 on a block device with the noop elevator) and report what fio
// reports: IOPS, bandwidth and completion-latency percentiles.
//
// Jobs run together on one device, starting at the simulator's current time;
// each issues random (uniform, block-aligned) or sequential I/O within its
// span of the device, for a duration or a count. A ramp (fio's ramp_time)
// runs the load without counting it, so that caches fill and queues settle
// before measuring. run_fio returns when every command it issued has
// completed: it runs the simulator until no event is left, so give it a
// simulator that holds only the device (and its members).
//
// Left out: mixed read/write jobs, think time, rate limits, fsync per job.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/disk/device.h"
#include "sim/simulator.h"
#include "sim/time.h"

namespace ckptsim::disk {

struct FioJob {
  std::string name = "job";
  bool random = true;  // false: sequential from offset
  bool write = false;
  sim::Bytes block_size = 8 * sim::kKiB;
  int queue_depth = 1;         // commands this job keeps outstanding (fio's iodepth)
  double offset = 0.0;         // where the job's region starts, as a fraction of the capacity
  double span = 1.0;           // its size, as a fraction of the capacity
  sim::Duration duration = 0;  // measured time after the ramp; 0: run `count` I/Os instead
  std::int64_t count = 0;      // I/Os issued in all (ramp included) when duration is 0
  sim::Duration ramp = 0;      // I/O issued before this is not counted
  std::uint64_t seed = 1;      // with the name, the job's random stream
};

struct FioResult {
  std::string name;
  std::int64_t ios = 0;       // completed in the measured window
  sim::Duration runtime = 0;  // length of the measured window
  double iops = 0;
  double mb_per_s = 0;     // MB = 10^6 bytes, as datasheets count
  double lat_mean_ms = 0;  // device_start to completion
  double lat_p50_ms = 0;
  double lat_p99_ms = 0;
  double lat_max_ms = 0;
  std::vector<sim::Duration> latencies;  // each measured I/O, in completion order
};

std::vector<FioResult> run_fio(sim::Simulator& sim, Device& device, const std::vector<FioJob>& jobs);
FioResult run_fio(sim::Simulator& sim, Device& device, const FioJob& job);

}  // namespace ckptsim::disk
