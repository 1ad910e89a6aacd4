// models/postgres/checkpoint_write.h
//
// A checkpoint's write phase: BufferSync (bufmgr.c) and CheckpointWriteDelay
// (checkpointer.c, 9.2-17; bgwriter.c before).
//
// Every dirty buffer is marked BM_CHECKPOINT_NEEDED, then written
//  - 9.6+: in (relation, block) order (or buffer order with
//    checkpoint_sorting off), progress = processed / total, a delay call
//    after every buffer; checkpoint_flush_after writebacks;
//  - 9.5-: from the clock hand round the pool, progress = written by us /
//    marked, a delay call after each of our writes only (checkpoint_sorting
//    is ignored there: the 9.5 loop has no order to sort).
// The delay sleeps 100 ms (9.2+) when on schedule (checkpoint_schedule.h)
// and no immediate checkpoint is requested; up to 9.1 it instead runs one
// BgBufferSync round and naps bgwriter_delay, so LRU cleaning stops whenever
// the checkpoint is behind. The request queue is absorbed at each sleep and
// every WRITES_PER_ABSORB (1000) delay calls otherwise.
// Left out: tablespace balancing (one tablespace).
#pragma once

#include <cstdint>
#include <vector>

#include "models/postgres/bgwriter.h"
#include "models/postgres/checkpoint_schedule.h"
#include "models/postgres/log_format.h"

namespace ckptsim::postgres {

// RequestCheckpoint's flags, pending until the checkpointer takes them.
class CheckpointRequests {
 public:
  void add(int flags) noexcept {
    flags_ |= flags;
    pending_ = true;
  }
  bool pending() const noexcept { return pending_; }
  bool pending(int flag) const noexcept { return pending_ && (flags_ & flag) != 0; }
  // The flags requested since the last take, cleared.
  int take() noexcept {
    pending_ = false;
    const int flags = flags_;
    flags_ = 0;
    return flags;
  }

 private:
  int flags_ = 0;
  bool pending_ = false;
};

class CheckpointWriter {
 public:
  CheckpointWriter(sim::Simulator& sim, sim::Resource* cpus, BufferManager& bufmgr, SyncQueue& queue,
                   const PostgresConfig& config, Version version, Stats& stats, CheckpointSchedule& schedule,
                   const CheckpointRequests& requests);

  // BufferSync for a checkpoint with `flags`; `bgwriter`: the 9.1- combined process.
  sim::Task<> buffer_sync(PgProc& proc, int flags, BackgroundWriter* bgwriter);

  // Of the last (or running) write phase.
  std::int64_t buffers_written() const noexcept { return written_; }
  sim::Time start() const noexcept { return start_; }
  sim::Time end() const noexcept { return end_; }

 private:
  sim::Task<> write_all(PgProc& proc, int flags, BackgroundWriter* bgwriter);
  // SyncOneBuffer for the checkpoint, counted as buffers_checkpoint: false if someone else wrote it first.
  sim::Task<bool> write_buffer(PgProc& proc, BufferId id);
  sim::Task<> write_delay(PgProc& proc, int flags, double progress, BackgroundWriter* bgwriter);

  sim::Simulator& sim_;
  sim::Resource* cpus_;
  BufferManager& bufmgr_;
  SyncQueue& queue_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  CheckpointSchedule& schedule_;
  const CheckpointRequests& requests_;
  std::vector<BufferManager::CkptSortItem> todo_;
  int absorb_counter_ = 0;
  std::int64_t written_ = 0;
  sim::Time start_ = 0;
  sim::Time end_ = 0;
};

}  // namespace ckptsim::postgres
