#include "models/pgbench/init.h"

#include "models/postgres/prewarm.h"

namespace ckptsim::pgbench {

namespace {

void access_all(postgres::Relations& rels, postgres::RelationId rel) {
  rels.access_before_start(rel, 0, rels.rel(rel).nblocks);
}

void replay_pgbench_init(postgres::Relations& rels, const PgbenchTables& t) {
  // g: the tables' data (branches, tellers, accounts: initGenerateData's order).
  for (const auto rel : {t.branches, t.tellers, t.accounts}) access_all(rels, rel);
  // v: VACUUM ANALYZE reads each page and writes it back; the visibility map after the heap.
  for (const auto rel : {t.branches, t.tellers, t.accounts}) {
    access_all(rels, rel);
    access_all(rels, rel);
    if (rel == t.accounts) access_all(rels, t.accounts_vm);
  }
  // p: each primary key: a scan of its heap, then the index written.
  const std::pair<postgres::RelationId, postgres::RelationId> keys[] = {
      {t.branches, t.branches_pkey}, {t.tellers, t.tellers_pkey}, {t.accounts, t.accounts_pkey}};
  for (const auto& [heap, index] : keys) {
    access_all(rels, heap);
    access_all(rels, index);
  }
}

}  // namespace

void start_state(postgres::Server& server, const PgbenchTables& t, const InitConfig& init) {
  postgres::Relations& rels = server.relations();
  if (!init.drop_caches) replay_pgbench_init(rels, t);
  if (init.pg_prewarm) {
    // As one would type it: SELECT pg_prewarm('pgbench_accounts'), then its index, then the small tables.
    for (const auto rel : {t.accounts, t.accounts_pkey, t.branches, t.branches_pkey, t.tellers, t.tellers_pkey}) {
      postgres::pg_prewarm_buffer(server.buffer_manager(), rel);
    }
  }
}

}  // namespace ckptsim::pgbench
