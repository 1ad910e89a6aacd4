// cli/calibrate/device_fit.h
//
// Fits a device of models/disk to what fio measured on a real one (the jobs
// of scripts/calibrate.fio), by running the same jobs on the candidate
// through the block layer (models/os/direct_io_bench.h, what `devbench` runs)
// and correcting one parameter per job family until the figures agree:
//
//   random read, QD1      -> read_time (SSD) / seek_average (HDD): the latency
//   random read, QD32     -> host_iops_cap: the controller's command rate
//   sequential read 128k  -> link_rate (SSD) / media_rate_outer (HDD)
//   random write, QD1     -> write_overhead: what a write adds before it is taken
//   random write, QD32    -> program_time: the sustained (garbage-collected) write rate
//   write + fdatasync     -> power_loss_protection and flush_overhead
//
// Each round runs the jobs for 0.5 s; the round closest to fio overall (the
// sum of |log(model / fio)| over the jobs) is kept, so figures that no device
// reproduces (a shared disk's stalls, a 4k write slower than an 8k one) end
// in the best compromise rather than wherever the corrections wandered. The
// write buffer is small (8 MiB) so that it fills within a round's ramp and
// the rounds see the sustained write rate fio's 10 s jobs see.
//
// Which model: an HDD when a random 8k read at QD1 takes more than 2 ms (a
// seek and half a turn; flash and network volumes answer in well under 1 ms),
// else flash. When the four random QD32 jobs plateau at one IOPS figure
// (within 15 %, whatever the direction and size), the disk is a volume whose
// provider caps its IOPS: a throttled volume (models/disk/throttled_volume.h)
// with volume_iops at the plateau and volume_mb_s at the best 128k rate, no
// burst credits (what fio shows is the baseline), over a flash device fitted
// as above for the latencies.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/calibrate/fio_report.h"
#include "models/disk/device_config.h"
#include "models/os/direct_io_bench.h"
#include "models/os/os_config.h"

namespace ckptsim::cli {

enum class DeviceShape { Flash, Hdd, ThrottledVolume };

struct JobCheck {
  const CalibrationJob* job = nullptr;
  double fio_iops = 0;
  double model_iops = 0;
  double fio_p50_ms = 0;
  double model_p50_ms = 0;
  double difference() const { return model_iops / fio_iops - 1; }  // relative
};

struct DeviceFit {
  DeviceShape shape = DeviceShape::Flash;
  std::string reason;  // what in the figures chose the shape
  disk::DeviceConfig device;
  std::vector<JobCheck> checks;  // each job of the report: fio's figure and the fitted device's
};

// The calibration jobs run on `device` under `os`, each on a fresh simulator
// (devbench's way): `runtime` measured after a ramp of a sixth of it.
std::vector<os::DirectJobResult> run_calibration_jobs(const disk::DeviceConfig& device, const os::OsConfig& os,
                                                      std::uint64_t seed, sim::Duration runtime);

DeviceFit fit_device(const FioReport& fio, const os::OsConfig& os, std::uint64_t seed);

std::string shape_name(DeviceShape shape);

}  // namespace ckptsim::cli
