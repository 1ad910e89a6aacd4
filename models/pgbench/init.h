// models/pgbench/init.h
//
// The state a host is in when a benchmark starts: after `pgbench -i -s SCALE`
// and a server restart. Shared buffers are empty (the restart); the page
// cache holds what initialisation read and wrote, as far as RAM allows.
//
// pgbench -i's default steps "dtgvp" (pgbench.c, 9.x to 17), replayed as the
// buffered I/O each did, in order, through the page cache's own LRU:
//   g  generate: COPY pgbench_branches, pgbench_tellers, pgbench_accounts
//      (each heap written in block order);
//   v  VACUUM ANALYZE each table: every heap page read and rewritten (hint
//      bits, PD_ALL_VISIBLE), the accounts visibility map written;
//   p  ALTER TABLE ... ADD PRIMARY KEY for branches, tellers, accounts: the
//      heap scanned, the index built and written in block order.
// Everything was written back since (the shutdown checkpoint, then the
// flusher), so every cached page is clean. A second access while a page is
// inactive promotes it to the active list, as mark_page_accessed does; when
// the database is larger than the cache, the LRU's reclaim decides which
// part stays, as it did on the real host.
//
// The WAL initialisation wrote (none at wal_level minimal, the default to
// 9.6, which skips it for COPY into a new table and for the index builds;
// about the relations' size at replica, 10+) is not replayed through the page
// cache; the recycled segments its checkpoints leave in pg_wal are
// (postgres/wal_segments.h, create_initial).
// Left out: the free space maps, ANALYZE's sample reads, the catalog.
#pragma once

#include "models/pgbench/tables.h"

namespace ckptsim::pgbench {

// The `init` section of a scenario, after pgbench's -i.
struct InitConfig {
  bool drop_caches = false;  // echo 3 > /proc/sys/vm/drop_caches after pgbench -i: the page cache starts empty
  bool pg_prewarm = false;   // pg_prewarm(rel, 'buffer') of every table and index before the warmup
};

// Replays pgbench -i's I/O into the page cache (unless drop_caches), then
// prewarms shared buffers (if pg_prewarm). Call before Server::start().
void start_state(postgres::Server& server, const PgbenchTables& tables, const InitConfig& init);

}  // namespace ckptsim::pgbench
