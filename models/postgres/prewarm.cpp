#include "models/postgres/prewarm.h"

#include <stdexcept>

#include "sim/interrupt.h"

namespace ckptsim::postgres {

std::int64_t pg_prewarm_buffer(BufferManager& bufmgr, RelationId rel) {
  BufferPool& pool = bufmgr.pool();
  Relations& rels = bufmgr.relations();
  const std::int64_t nblocks = rels.rel(rel).nblocks;
  for (std::int64_t block = 0; block < nblocks; ++block) {
    const BufferTag tag{rel, block};
    if (const BufferId hit = pool.lookup(tag); hit >= 0) {
      pool.pin(hit);
      pool.unpin(hit);
    } else {
      const BufferId victim = pool.strategy_get_buffer();
      const BufferDesc& b = pool.desc(victim);
      if (b.dirty || pool.state(victim).io_in_progress || b.refcount != 0) {
        throw std::logic_error("pg_prewarm before start needs a clean, idle buffer pool");
      }
      bufmgr.load_before_start(victim, tag);
    }
    rels.access_before_start(rel, block, 1);
  }
  return nblocks;
}

}  // namespace ckptsim::postgres
