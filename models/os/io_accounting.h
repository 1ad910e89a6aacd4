// models/os/io_accounting.h
//
// The /proc/diskstats counters of one queue, kept where the kernel keeps
// them (block/blk-core.c, 3.x): blk_account_io_start when a request enters
// the elevator, drive_stat_acct's merge count when a bio joins a request,
// blk_account_io_done at completion, part_round_stats before in_flight
// changes; flushes counted apart as modern kernels do. See diskstats.h for
// what the counters mean and how iostat derives its figures.
#pragma once

#include <cstdint>

#include "models/disk/device.h"
#include "models/os/bio.h"
#include "models/os/diskstats.h"
#include "sim/time.h"

namespace ckptsim::os {

class IoAccounting {
 public:
  // A request entered the elevator: in flight from now.
  void started(sim::Time now) {
    stats_.advance(now);
    ++stats_.in_flight;
  }
  // A bio joined an existing request.
  void bio_merged(disk::Op op) { (op == disk::Op::Read ? stats_.read_merges : stats_.write_merges)++; }
  // A queued request was absorbed by its neighbour: it was counted in flight and becomes a merge.
  void request_merged(disk::Op op, sim::Time now) {
    stats_.advance(now);
    --stats_.in_flight;
    bio_merged(op);
  }
  void done(const Request& rq, sim::Time now);
  void flush_done(sim::Duration took) {
    ++stats_.flushes;
    stats_.flush_ticks += took;
  }

  DiskStats snapshot(sim::Time now) const {
    stats_.advance(now);
    return stats_;
  }
  std::int64_t write_sectors() const { return stats_.write_sectors; }

 private:
  mutable DiskStats stats_;  // snapshot() folds the time up to now in
};

inline void IoAccounting::done(const Request& rq, sim::Time now) {
  stats_.advance(now);
  --stats_.in_flight;
  const std::int64_t sectors = rq.bytes / disk::kSectorBytes;
  if (rq.op == disk::Op::Read) {
    ++stats_.reads;
    stats_.read_sectors += sectors;
    stats_.read_ticks += now - rq.created;
  } else {
    ++stats_.writes;
    stats_.write_sectors += sectors;
    stats_.write_ticks += now - rq.created;
  }
}

}  // namespace ckptsim::os
