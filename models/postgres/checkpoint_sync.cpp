// models/postgres/checkpoint_sync.cpp
//
// ProcessSyncRequests (see checkpoint_sync.h).
#include "models/postgres/checkpoint_sync.h"

#include <algorithm>
#include <vector>

namespace ckptsim::postgres {

namespace {
constexpr int kFsyncsPerAbsorb = 10;  // FSYNCS_PER_ABSORB
}  // namespace

sim::Task<> process_sync_requests(sim::Simulator& sim, PgProc& proc, SyncQueue& queue, Relations& rels,
                                  const PostgresConfig& config, Stats& stats, CheckpointEnd& end) {
  const std::vector<SegmentId>& to_sync = queue.start_sync_cycle();
  int absorb_counter = kFsyncsPerAbsorb;
  std::int64_t total_us = 0;
  std::int64_t longest_us = 0;
  for (const SegmentId seg : to_sync) {
    if (!queue.pending(seg)) continue;
    if (!config.fsync) {
      // With fsync off each entry is dropped, unsynced and uncounted (sync files=0).
      queue.forget(seg);
      continue;
    }
    if (--absorb_counter <= 0) {
      queue.absorb();
      absorb_counter = kFsyncsPerAbsorb;
    }
    const sim::Time t0 = sim.now();
    co_await rels.fsync(proc, seg);
    const sim::Duration dt = sim.now() - t0;
    queue.forget(seg);
    ++end.sync_files;
    ++stats.checkpointer_fsyncs;
    total_us += dt / sim::kMicrosecond;
    longest_us = std::max(longest_us, dt / sim::kMicrosecond);
  }
  end.total_sync_us = total_us;
  end.longest_sync_us = longest_us;
}

}  // namespace ckptsim::postgres
