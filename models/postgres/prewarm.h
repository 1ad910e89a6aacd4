// models/postgres/prewarm.h
//
// pg_prewarm(rel, 'buffer') from contrib/pg_prewarm (9.4+): every block of
// the relation's main fork read into shared buffers with ReadBufferExtended
// (RBM_NORMAL, no ring strategy) and released at once, in block order. A
// block already there is a hit (PinBuffer: usage_count + 1); a new one takes
// a buffer from the freelist or the clock sweep with usage_count 1, so a
// relation larger than shared_buffers keeps its last NBuffers blocks. The
// read goes through the page cache, which keeps the block too.
//
// Modelled as the state the call leaves, before the simulation starts: it
// takes no simulated time and does no I/O, so only a clean pool (a server
// just started) can be prewarmed. Left out: the 'read' and 'prefetch' modes,
// other forks.
#pragma once

#include <cstdint>

#include "models/postgres/bufmgr.h"

namespace ckptsim::postgres {

// Returns the number of blocks read (the function's result in SQL).
std::int64_t pg_prewarm_buffer(BufferManager& bufmgr, RelationId rel);

}  // namespace ckptsim::postgres
