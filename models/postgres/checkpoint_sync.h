// models/postgres/checkpoint_sync.h
//
// A checkpoint's sync phase: ProcessSyncRequests (sync.c, 12+; mdsync in
// md.c before). Every segment file with a pending fsync request when the
// phase starts is fsynced, back to back, the request queue absorbed every
// FSYNCS_PER_ABSORB (10) fsyncs; an entry cancelled meanwhile is skipped.
// With fsync = off each entry is dropped without a call (sync files=0).
// The per-file times are summed and maxed in microseconds, as 9.1+ logs them.
// Left out: the retry of a file deleted meanwhile (no DROP is modelled).
#pragma once

#include "models/postgres/log_format.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/relations.h"
#include "models/postgres/stats.h"
#include "models/postgres/sync_queue.h"

namespace ckptsim::postgres {

// Fills end's sync_files, total_sync_us and longest_sync_us.
sim::Task<> process_sync_requests(sim::Simulator& sim, PgProc& proc, SyncQueue& queue, Relations& rels,
                                  const PostgresConfig& config, Stats& stats, CheckpointEnd& end);

}  // namespace ckptsim::postgres
