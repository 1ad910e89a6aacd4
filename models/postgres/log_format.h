// models/postgres/log_format.h
//
// The server log as PostgreSQL prints it: log_line_prefix '%m [%p] ' (the
// Debian default: "2015-08-17 10:00:12.345 UTC [1234] "), severity, two
// spaces, message. Simulated time 0 is 2015-08-17 10:00:00 UTC.
//
// log_checkpoints lines per release (xlog.c LogCheckpointStart / End):
//   9.0      wrote N buffers (P%); A transaction log file(s) added, R removed, C recycled; write=, sync=, total=
//   9.1-9.4  + "; sync files=F, longest=L s, average=A s"
//   9.5-9.6  + "; distance=D kB, estimate=E kB"
//   10-15    "WAL file(s)" instead of "transaction log file(s)"
//   16-17    + "; lsn=X/X, redo lsn=X/X"
// The cause word is "xlog" up to 11 and "wal" from 12.
#pragma once

#include <cstdint>
#include <string>

#include "models/postgres/version.h"
#include "sim/time.h"

namespace ckptsim::postgres {

// CHECKPOINT_* request flags (xlog.h).
enum CheckpointFlags : int {
  kCheckpointShutdown = 1 << 0,
  kCheckpointImmediate = 1 << 2,
  kCheckpointForce = 1 << 3,
  kCheckpointWait = 1 << 5,
  kCheckpointCauseXlog = 1 << 7,
  kCheckpointCauseTime = 1 << 8,
};

// "2015-08-17 10:00:12.345 UTC": log_line_prefix's %m at simulated time t.
std::string log_timestamp(sim::Time t);
// "2015-08-17 10:00:12.345 UTC [1234] LOG:  " for a message at simulated time t.
std::string log_prefix(sim::Time t, int pid, const char* severity = "LOG");

// LogCheckpointStart's words for the flags, as data: "time", "immediate force wait", "xlog".
std::string checkpoint_cause(const Version& version, int flags);
// "checkpoint starting: time" (without prefix).
std::string checkpoint_starting_message(const Version& version, int flags);

struct CheckpointEnd {
  std::int64_t buffers_written = 0;
  std::int64_t nbuffers = 1;
  std::int64_t slru_written = 0;  // 18 logs it
  int segs_added = 0;
  int segs_removed = 0;
  int segs_recycled = 0;
  sim::Duration write = 0;  // ckpt_sync_t - ckpt_write_t
  sim::Duration sync = 0;   // ckpt_sync_end_t - ckpt_sync_t
  sim::Duration total = 0;  // end - ckpt_start_t
  std::int64_t sync_files = 0;
  std::int64_t longest_sync_us = 0;
  std::int64_t total_sync_us = 0;
  std::int64_t distance_bytes = 0;
  double estimate_bytes = 0;
  std::int64_t checkpoint_lsn = 0;
  std::int64_t redo_lsn = 0;
};
// "checkpoint complete: wrote ..." (without prefix).
std::string checkpoint_complete_message(const Version& version, const CheckpointEnd& end);

// "%X/%X" as PostgreSQL prints an LSN.
std::string format_lsn(std::int64_t lsn);

}  // namespace ckptsim::postgres
