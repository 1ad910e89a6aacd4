#include "models/postgres/prewarm.h"

#include <stdexcept>

#include "sim/interrupt.h"

namespace ckptsim::postgres {

std::int64_t pg_prewarm_buffer(BufferPool& pool, Relations& rels, RelationId rel) {
  const std::int64_t nblocks = rels.rel(rel).nblocks;
  for (std::int64_t block = 0; block < nblocks; ++block) {
    const BufferTag tag{rel, block};
    if (const BufferId hit = pool.lookup(tag); hit >= 0) {
      pool.pin(hit);
      pool.unpin(hit);
    } else {
      const BufferId victim = pool.strategy_get_buffer();
      BufferDesc& b = pool.desc(victim);
      if (b.dirty || b.io_in_progress || b.refcount != 0) {
        throw std::logic_error("pg_prewarm before start needs a clean, idle buffer pool");
      }
      pool.retag(victim, tag);  // usage_count 1, which the release leaves
      b.valid = true;
    }
    rels.access_before_start(rel, block, 1);
  }
  return nblocks;
}

}  // namespace ckptsim::postgres
