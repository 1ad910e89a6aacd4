// models/os/diskstats.h
//
// /proc/diskstats counters of one block device, kept at the kernel's
// accounting points (Documentation/admin-guide/iostats.rst; block/blk-core.c
// on 3.x): an I/O counts as in flight from its insertion into the elevator
// to its completion, its time from the request's creation (so await includes
// time in the scheduler and in a plug), merges count bios that joined an
// existing request. iostat -x's figures are derived from two snapshots with
// the tool's own formulas.
//
// Left out: discards; flushes are counted apart (as modern kernels do) and
// never enter r/s, w/s or the await figures.
#pragma once

#include <cstdint>

#include "sim/time.h"

namespace ckptsim::os {

struct DiskStats {
  std::int64_t reads = 0;  // completed
  std::int64_t writes = 0;
  std::int64_t read_merges = 0;
  std::int64_t write_merges = 0;
  std::int64_t read_sectors = 0;
  std::int64_t write_sectors = 0;
  sim::Duration read_ticks = 0;  // sum over completed reads of completion - creation
  sim::Duration write_ticks = 0;
  std::int64_t flushes = 0;
  sim::Duration flush_ticks = 0;
  std::int64_t in_flight = 0;       // inserted, not completed
  sim::Duration io_ticks = 0;       // time with at least one I/O in flight
  sim::Duration time_in_queue = 0;  // integral of in_flight over time
  sim::Time updated = 0;

  // Folds the time since the last update into io_ticks / time_in_queue
  // (part_round_stats); call before in_flight changes.
  void advance(sim::Time now) {
    const sim::Duration dt = now - updated;
    if (in_flight > 0) io_ticks += dt;
    time_in_queue += in_flight * dt;
    updated = now;
  }
};

// One line of iostat -x over [before, after].
struct Iostat {
  double r_s = 0, w_s = 0;            // completed per second
  double rmb_s = 0, wmb_s = 0;        // MB/s (MiB, as iostat -m)
  double rrqm_s = 0, wrqm_s = 0;      // bios merged into a request per second (rrqm/s, wrqm/s)
  double rareq_sz = 0, wareq_sz = 0;  // kB per completed request (rareq-sz, wareq-sz, sysstat 12)
  double r_await = 0, w_await = 0;    // ms per completed I/O, queue time included
  double aqu_sz = 0;                  // average number in flight
  double util_pct = 0;                // % of the interval with something in flight
};

inline Iostat iostat(const DiskStats& before, const DiskStats& after, sim::Duration interval) {
  Iostat out;
  if (interval <= 0) return out;
  const double seconds = sim::to_seconds(interval);
  const auto reads = after.reads - before.reads;
  const auto writes = after.writes - before.writes;
  out.r_s = static_cast<double>(reads) / seconds;
  out.w_s = static_cast<double>(writes) / seconds;
  constexpr double kSectorsPerMiB = 2048.0;
  out.rmb_s = static_cast<double>(after.read_sectors - before.read_sectors) / kSectorsPerMiB / seconds;
  out.wmb_s = static_cast<double>(after.write_sectors - before.write_sectors) / kSectorsPerMiB / seconds;
  out.rrqm_s = static_cast<double>(after.read_merges - before.read_merges) / seconds;
  out.wrqm_s = static_cast<double>(after.write_merges - before.write_merges) / seconds;
  constexpr double kSectorsPerKiB = 2.0;
  if (reads > 0)
    out.rareq_sz =
        static_cast<double>(after.read_sectors - before.read_sectors) / kSectorsPerKiB / static_cast<double>(reads);
  if (writes > 0)
    out.wareq_sz =
        static_cast<double>(after.write_sectors - before.write_sectors) / kSectorsPerKiB / static_cast<double>(writes);
  if (reads > 0) out.r_await = sim::to_millis(after.read_ticks - before.read_ticks) / static_cast<double>(reads);
  if (writes > 0) out.w_await = sim::to_millis(after.write_ticks - before.write_ticks) / static_cast<double>(writes);
  out.aqu_sz = static_cast<double>(after.time_in_queue - before.time_in_queue) / static_cast<double>(interval);
  out.util_pct = 100.0 * static_cast<double>(after.io_ticks - before.io_ticks) / static_cast<double>(interval);
  return out;
}

}  // namespace ckptsim::os
