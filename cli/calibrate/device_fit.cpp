// cli/calibrate/device_fit.cpp
#include "cli/calibrate/device_fit.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "cli/host/device_rig.h"
#include "models/disk/write_amplification.h"

namespace ckptsim::cli {

namespace {

// The span the jobs cover: scripts/calibrate.fio's default file size.
constexpr sim::Bytes kSpan = 2 * sim::kGiB;
constexpr int kRounds = 12;
constexpr double kConverged = 0.02;  // every job within 2 %: stop correcting

double geometric_mean(double a, double b) { return std::sqrt(a * b); }

struct Figures {
  // Per-job I/O time (1 / IOPS, ns): at QD1 the whole cycle of one I/O.
  std::vector<double> fio_cycle, model_cycle;
  std::vector<double> fio_iops, model_iops;
  std::size_t at(std::string_view name) const {
    for (std::size_t i = 0; i < kCalibrationJobs.size(); ++i) {
      if (kCalibrationJobs[i].name == name) return i;
    }
    return 0;
  }
  // fio's cycle minus the model's (ns): what a latency parameter must gain.
  double shortfall(std::string_view name) const { return fio_cycle[at(name)] - model_cycle[at(name)]; }
  // fio's rate over the model's.
  double rate_ratio(std::string_view name) const { return fio_iops[at(name)] / model_iops[at(name)]; }
  // Sum over the jobs of |log(model / fio)|: how far the candidate is overall.
  double distance() const {
    double d = 0;
    for (std::size_t i = 0; i < fio_iops.size(); ++i) d += std::abs(std::log(model_iops[i] / fio_iops[i]));
    return d;
  }
  double worst() const {
    double w = 0;
    for (std::size_t i = 0; i < fio_iops.size(); ++i) w = std::max(w, std::abs(model_iops[i] / fio_iops[i] - 1));
    return w;
  }
};

Figures compare(const FioReport& fio, const std::vector<os::DirectJobResult>& model) {
  Figures f;
  for (std::size_t i = 0; i < kCalibrationJobs.size(); ++i) {
    const double fio_iops = fio[kCalibrationJobs[i].name].iops;
    const double model_iops = std::max(model[i].iops, 1e-3);
    f.fio_iops.push_back(fio_iops);
    f.model_iops.push_back(model_iops);
    f.fio_cycle.push_back(1e9 / fio_iops);
    f.model_cycle.push_back(1e9 / model_iops);
  }
  return f;
}

// A rate in bytes per second, rounded to whole MiB/s (as presets write them) within the schema's range.
sim::Bytes whole_mib(double bytes_per_s) {
  return std::clamp<sim::Bytes>(std::llround(bytes_per_s / sim::kMiB), 1, 64 * sim::kKiB) * sim::kMiB;
}

sim::Duration clamp_ns(double ns, sim::Duration low, sim::Duration high) {
  return std::clamp<sim::Duration>(std::llround(ns), low, high);
}

// A flash device to start from: a controller that is not the limit, no write
// or flush cost, a link twice as fast as the best sequential rate measured.
disk::DeviceConfig flash_start(const FioReport& fio) {
  disk::DeviceConfig d;
  d.kind = disk::Kind::Ssd;
  d.interface = disk::Interface::Nvme;  // queued flushes, as virtio and NVMe have
  d.capacity = 256 * sim::kGiB;
  d.queue_depth = 256;
  // Enough flash units that random reads at QD32 are not held by them (each
  // is busy a read time per read), and no more: the sustained write rate is
  // units x flash_page / (program_time x WA), and a flush waits for the last
  // program, so few units keep program_time near a real flash program's.
  d.ssd.read_time = clamp_ns(1e9 / fio["randread-8k-qd1"].iops / 2, sim::kMicrosecond, sim::kSecond);
  const double busy =
      1.5 * std::max(fio["randread-4k-qd32"].iops, fio["randread-8k-qd32"].iops) * sim::to_seconds(d.ssd.read_time);
  d.ssd.channels = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::ceil(busy)), 8, 256);
  d.ssd.dies_per_channel = 1;
  d.ssd.planes = 1;
  d.ssd.flash_page = 16 * sim::kKiB;
  d.ssd.channel_rate = 800 * sim::kMiB;
  d.ssd.ftl_overhead = 0;  // folded into read_time
  d.ssd.host_overhead = 10 * sim::kMicrosecond;
  d.ssd.write_overhead = 0;
  d.ssd.host_iops_cap = std::llround(1.2 * std::max(fio["randread-4k-qd32"].iops, fio["randread-8k-qd32"].iops));
  const double best_mib_s = std::max(fio["seqread-128k"].mb_per_s, fio["seqwrite-128k"].mb_per_s);
  d.link_rate = whole_mib(2 * best_mib_s * sim::kMiB);
  d.ssd.program_time = 1 * sim::kMillisecond;
  d.ssd.over_provisioning = 0.20;
  // A small buffer: it fills within the ramp of a fitting round, so the
  // rounds see the sustained write rate that fio's 10 s jobs see.
  d.ssd.write_buffer = 8 * sim::kMiB;
  // Without a volatile cache a flush is free: a write-and-fdatasync cycle
  // clearly longer than a write alone (10 % and 20 us) says there is one.
  const double write_us = 1e6 / fio["randwrite-8k-qd1"].iops, fsync_us = 1e6 / fio["fsync-8k"].iops;
  d.ssd.power_loss_protection = fsync_us < 1.1 * write_us + 20;
  d.ssd.flush_overhead = 0;
  return d;
}

// The over-provisioning whose steady-state write amplification is `wa` (it falls as spare space grows).
double over_provisioning_for(double wa) {
  double low = 0.02, high = 4.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = (low + high) / 2;
    (disk::steady_state_write_amplification(mid) > wa ? low : high) = mid;
  }
  return std::round((low + high) / 2 * 1e4) / 1e4;
}

void correct_flash(disk::DeviceConfig& d, const Figures& f) {
  const double read_gap = (f.shortfall("randread-4k-qd1") + f.shortfall("randread-8k-qd1")) / 2;
  d.ssd.read_time = clamp_ns(static_cast<double>(d.ssd.read_time) + read_gap, sim::kMicrosecond, sim::kSecond);
  const double cap = geometric_mean(f.rate_ratio("randread-4k-qd32"), f.rate_ratio("randread-8k-qd32"));
  d.ssd.host_iops_cap =
      std::clamp<std::int64_t>(std::llround(static_cast<double>(d.ssd.host_iops_cap) * cap), 10, 100000000);
  // A 128k read's cycle gains 128k / link_rate: move the link's time per byte.
  const double ns_per_byte =
      1e9 / static_cast<double>(d.link_rate) + f.shortfall("seqread-128k") / static_cast<double>(128 * sim::kKiB);
  d.link_rate = whole_mib(1e9 / std::max(ns_per_byte, 1e-3));
  const double write_gap = (f.shortfall("randwrite-4k-qd1") + f.shortfall("randwrite-8k-qd1")) / 2;
  d.ssd.write_overhead = clamp_ns(static_cast<double>(d.ssd.write_overhead) + write_gap, 0, sim::kSecond);
  d.ssd.channel_rate = std::min(2 * d.link_rate, 64 * sim::kGiB);  // the flash side is not what limits a single stream
  // Sustained writes: a stripe keeps its unit busy WA x program_time, plus
  // (WA - 1) copy-back reads and WA / pages_per_block erases (ssd.h), so the
  // rate goes as 1 / busy. Sequential stripes pay no garbage collection
  // (WA 1): their rate gives program_time, the random ones' the WA on top.
  // Only a sequential write that waits for programs says anything about them:
  // one that takes no longer than its latency is held by write_overhead and the link.
  const double write_latency = static_cast<double>(d.ssd.host_overhead + d.ssd.write_overhead) +
                               static_cast<double>(128 * sim::kKiB) * 1e9 / static_cast<double>(d.link_rate);
  const bool programs_hold_sequential = f.model_cycle[f.at("seqwrite-128k")] > 1.2 * write_latency;
  const double random = geometric_mean(f.rate_ratio("randwrite-4k-qd32"), f.rate_ratio("randwrite-8k-qd32"));
  const double program = static_cast<double>(d.ssd.program_time), read = static_cast<double>(d.ssd.read_time);
  const double erase = static_cast<double>(d.ssd.erase_time) / static_cast<double>(d.ssd.pages_per_block);
  const double floor = 10e3;  // ns: no flash programs faster
  double wa = disk::steady_state_write_amplification(d.ssd.over_provisioning);
  const double busy_wanted = (wa * program + (wa - 1) * read + wa * erase) / random;
  double program_wanted = 0;
  if (programs_hold_sequential) {
    program_wanted = std::max(floor, (program + erase) / f.rate_ratio("seqwrite-128k") - erase);
    wa = (busy_wanted + read) / (program_wanted + read + erase);
  } else {
    program_wanted = (busy_wanted + read) / wa - read - erase;
    if (program_wanted < floor) {
      program_wanted = floor;
      wa = (busy_wanted + read) / (program_wanted + read + erase);
    }
  }
  wa = std::clamp(wa, disk::steady_state_write_amplification(4.0), disk::steady_state_write_amplification(0.02));
  d.ssd.over_provisioning = over_provisioning_for(wa);
  // At most a doubling or a halving per round: the two families pull on one parameter.
  d.ssd.program_time =
      clamp_ns(std::clamp(program_wanted, program / 2, program * 2), 10 * sim::kMicrosecond, sim::kSecond);
  if (!d.ssd.power_loss_protection) {
    // A flush that costs more than fio measured with nothing added is the
    // last program's wait: the volatile cache is not what the cycle shows.
    if (d.ssd.flush_overhead == 0 && f.shortfall("fsync-8k") < -20e3) d.ssd.power_loss_protection = true;
    d.ssd.flush_overhead =
        clamp_ns(static_cast<double>(d.ssd.flush_overhead) + f.shortfall("fsync-8k"), 0, sim::kSecond);
  }
}

// An HDD from the hdd-7200-sata defaults; the spindle speed from the random read time.
disk::DeviceConfig hdd_start(const FioReport& fio) {
  disk::DeviceConfig d;  // the defaults are hdd-7200-sata's
  const double read_ms = 1e3 / fio["randread-8k-qd1"].iops;
  // Half a turn (4.2 ms at 7,200 rpm, 3 at 10,000, 2 at 15,000) plus a seek
  // that is short within fio's 2 GB file.
  d.hdd.rpm = read_ms >= 5 ? 7200 : read_ms >= 3.5 ? 10000 : 15000;
  d.hdd.write_cache = fio["randwrite-8k-qd1"].iops > 2 * fio["randread-8k-qd1"].iops;
  return d;
}

void correct_hdd(disk::DeviceConfig& d, const Figures& f) {
  const double read_gap = (f.shortfall("randread-4k-qd1") + f.shortfall("randread-8k-qd1")) / 2;
  d.hdd.seek_average =
      clamp_ns(static_cast<double>(d.hdd.seek_average) + read_gap, d.hdd.seek_single + 1, sim::kSecond);
  d.hdd.seek_full = std::max(d.hdd.seek_full, 2 * d.hdd.seek_average);
  const double media = f.rate_ratio("seqread-128k");
  d.hdd.media_rate_outer = whole_mib(static_cast<double>(d.hdd.media_rate_outer) * media);
  d.hdd.media_rate_inner = std::max(sim::kMiB, d.hdd.media_rate_outer / 2);
}

bool iops_plateau(const FioReport& fio, double& level) {
  const double a = fio["randread-4k-qd32"].iops, b = fio["randread-8k-qd32"].iops;
  const double c = fio["randwrite-4k-qd32"].iops, e = fio["randwrite-8k-qd32"].iops;
  const double low = std::min({a, b, c, e}), high = std::max({a, b, c, e});
  level = (a + b + c + e) / 4;
  return high <= 1.15 * low;
}

}  // namespace

std::string shape_name(DeviceShape shape) {
  switch (shape) {
    case DeviceShape::Flash: return "flash (SSD / NVMe)";
    case DeviceShape::Hdd: return "hdd";
    case DeviceShape::ThrottledVolume: return "throttled volume";
  }
  return "";
}

std::vector<os::DirectJobResult> run_calibration_jobs(const disk::DeviceConfig& device, const os::OsConfig& os_config,
                                                      std::uint64_t seed, sim::Duration runtime) {
  std::vector<os::DirectJobResult> out;
  for (const CalibrationJob& job : kCalibrationJobs) {
    DeviceRig rig(device, os_config, seed);
    const os::DirectJob direct{.name = std::string(job.name),
                               .write = job.write(),
                               .random = job.random(),
                               .iodepth = job.iodepth,
                               .block = job.block,
                               .span = std::min(kSpan, device.capacity),
                               .ramp = runtime / 6,
                               .runtime = runtime,
                               .batch = 1,
                               .flush_each = job.fdatasync};
    out.push_back(rig.run(direct));
  }
  return out;
}

DeviceFit fit_device(const FioReport& fio, const os::OsConfig& os_config, std::uint64_t seed) {
  DeviceFit fit;
  const double read_ms = 1e3 / fio["randread-8k-qd1"].iops;
  double plateau = 0;
  if (read_ms > 2) {
    fit.shape = DeviceShape::Hdd;
    fit.reason = fmt::format("a random 8k read at QD1 takes {:.2f} ms: a seek and a rotation", read_ms);
    fit.device = hdd_start(fio);
  } else {
    fit.shape = iops_plateau(fio, plateau) ? DeviceShape::ThrottledVolume : DeviceShape::Flash;
    fit.reason = fit.shape == DeviceShape::Flash
                     ? fmt::format("a random 8k read at QD1 takes {:.3f} ms: no seek", read_ms)
                     : fmt::format(
                           "random reads and writes at QD32, 4k and 8k, all plateau near {:.0f} IOPS: "
                           "a provider's cap (the volume's IOPS at the plateau, its throughput at the "
                           "128k jobs' best, no burst credits)",
                           plateau);
    fit.device = flash_start(fio);
    if (fit.shape == DeviceShape::ThrottledVolume) {
      // The volume's buckets in front of a flash device the corrections fit
      // as usual; a controller far from the cap, so the cap is the volume's.
      fit.device.volume.limits.iops = std::llround(plateau);
      fit.device.volume.limits.mb_s = whole_mib(std::max(fio["seqread-128k"].mb_per_s, fio["seqwrite-128k"].mb_per_s) *
                                                static_cast<double>(sim::kMiB));
      fit.device.ssd.host_iops_cap = 10 * fit.device.volume.limits.iops;
    }
  }
  // Short runs while correcting; the check below runs devbench's 3 s.
  const sim::Duration fitting_runtime = sim::kSecond / 2;
  // Figures that no device reproduces (a shared disk's stalls) can make the
  // corrections wander: the round closest to fio overall is the one kept.
  disk::DeviceConfig candidate = fit.device;
  double best = INFINITY;
  for (int round = 0; round < kRounds; ++round) {
    const Figures f = compare(fio, run_calibration_jobs(candidate, os_config, seed, fitting_runtime));
    if (f.distance() < best) {
      best = f.distance();
      fit.device = candidate;
    }
    if (f.worst() < kConverged) break;
    if (fit.shape == DeviceShape::Hdd) {
      correct_hdd(candidate, f);
    } else {
      correct_flash(candidate, f);
    }
  }
  const std::vector<os::DirectJobResult> model = run_calibration_jobs(fit.device, os_config, seed, 3 * sim::kSecond);
  for (std::size_t i = 0; i < kCalibrationJobs.size(); ++i) {
    const FioFigures& measured = fio[kCalibrationJobs[i].name];
    fit.checks.push_back({.job = &kCalibrationJobs[i],
                          .fio_iops = measured.iops,
                          .model_iops = model[i].iops,
                          .fio_p50_ms = measured.lat_p50_ms,
                          .model_p50_ms = model[i].p50_ms});
  }
  return fit;
}

}  // namespace ckptsim::cli
