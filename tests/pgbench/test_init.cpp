// The host's start state: the page cache as pgbench -i left it, shared buffers
// after a restart, and the init section's drop_caches and pg_prewarm.
#include <doctest/doctest.h>

#include "tests/pgbench/harness.h"

using namespace ckptsim;
using namespace ckptsim::pgbench;

namespace {

// A machine of `ram` whose pgbench tables at `scale` were just initialised.
struct Host : testing::Machine {
  Host(sim::Bytes ram, std::int64_t scale, InitConfig init) : Machine(4, scale, {}, ram, init) {}

  // Blocks of the relation in the page cache (fincore).
  std::int64_t cached(postgres::RelationId rel, std::int64_t first, std::int64_t count) {
    postgres::Relations& rels = server.relations();
    std::int64_t n = 0;
    for (std::int64_t b = first; b < first + count; ++b) {
      const postgres::SegmentFile& seg = rels.segment(rels.segment_of(rel, b));
      n += kernel.cached_blocks(seg.file, b % postgres::kBlocksPerSegment, 1);
    }
    return n;
  }
  std::int64_t cached(postgres::RelationId rel) { return cached(rel, 0, blocks(rel)); }
  std::int64_t blocks(postgres::RelationId rel) { return server.relations().rel(rel).nblocks; }
  std::int64_t valid_buffers() {
    std::int64_t n = 0;
    for (postgres::BufferId b = 0; b < server.buffer_pool().size(); ++b)
      n += server.buffer_pool().state(b).valid ? 1 : 0;
    return n;
  }
};

}  // namespace

TEST_CASE("a database smaller than RAM is all in the page cache, clean, with shared buffers empty") {
  Host h(4 * sim::kGiB, 10, {});
  const PgbenchTables& t = h.tables;
  for (const auto rel :
       {t.accounts, t.accounts_pkey, t.branches, t.branches_pkey, t.tellers, t.tellers_pkey, t.accounts_vm}) {
    CHECK(h.cached(rel) == h.blocks(rel));
  }
  CHECK(h.kernel.dirty_pages() == 0);
  CHECK(h.kernel.writeback_pages() == 0);
  CHECK(h.valid_buffers() == 0);  // a restart empties shared buffers
  std::string why;
  CHECK_MESSAGE(h.kernel.check_accounting(&why), why);
}

TEST_CASE("a database larger than RAM keeps what pgbench -i wrote last: accounts_pkey and the end of accounts") {
  // Scale 40 is 600 MB; 1 GB of RAM, less 128 MB of shared buffers and 512 MB of kernel
  // and processes (reserved_memory), leaves 384 MB of page cache.
  Host h(1 * sim::kGiB, 40, {});
  const PgbenchTables& t = h.tables;
  const std::int64_t capacity_blocks = h.kernel.page_cache_capacity_pages() / os::kPagesPerBlock;
  const std::int64_t db = PgbenchTables::database_blocks(40);
  REQUIRE(capacity_blocks > db / 2);
  REQUIRE(capacity_blocks < db);
  CHECK(h.kernel.cached_pages() / os::kPagesPerBlock == capacity_blocks);  // full: nothing left free
  // The primary key is built last (the "p" step), after its scan of accounts.
  CHECK(h.cached(t.accounts_pkey) == h.blocks(t.accounts_pkey));
  const std::int64_t n = h.blocks(t.accounts);
  CHECK(h.cached(t.accounts, n - 1000, 1000) == 1000);  // the scan's last pages stay
  CHECK(h.cached(t.accounts, 0, 1000) == 0);            // its first gave way
  CHECK(h.kernel.dirty_pages() == 0);
}

TEST_CASE("init.drop_caches starts with an empty page cache") {
  InitConfig init;
  init.drop_caches = true;
  Host h(4 * sim::kGiB, 10, init);
  CHECK(h.kernel.cached_pages() == 0);
  CHECK(h.valid_buffers() == 0);
}

TEST_CASE("init.pg_prewarm loads the tables into shared buffers through the page cache") {
  SUBCASE("the database fits in shared buffers: every page is a buffer") {
    InitConfig init;
    init.pg_prewarm = true;
    init.drop_caches = true;  // pg_prewarm's reads fill the page cache too
    Host h(4 * sim::kGiB, 5, init);
    const PgbenchTables& t = h.tables;
    const std::int64_t prewarmed = h.blocks(t.accounts) + h.blocks(t.accounts_pkey) + h.blocks(t.branches) +
                                   h.blocks(t.branches_pkey) + h.blocks(t.tellers) + h.blocks(t.tellers_pkey);
    REQUIRE(prewarmed < h.server.buffer_pool().size());
    CHECK(h.valid_buffers() == prewarmed);
    CHECK(h.cached(t.accounts) == h.blocks(t.accounts));
    CHECK(h.cached(t.accounts_vm) == 0);  // not prewarmed, and drop_caches emptied the cache
    for (postgres::BufferId b = 0; b < h.server.buffer_pool().size(); ++b) {
      if (!h.server.buffer_pool().state(b).valid) continue;
      CHECK(h.server.buffer_pool().state(b).usage_count == 1);
      CHECK_FALSE(h.server.buffer_pool().desc(b).dirty);
    }
  }
  SUBCASE("larger than shared buffers: every buffer holds a page, the clock sweep recycled the rest") {
    InitConfig init;
    init.pg_prewarm = true;
    Host h(4 * sim::kGiB, 20, init);
    CHECK(h.valid_buffers() == h.server.buffer_pool().size());
    // The small tables were prewarmed last: they are in shared buffers.
    CHECK(h.server.buffer_pool().lookup({h.tables.branches, 0}) >= 0);
    CHECK(h.server.buffer_pool().lookup({h.tables.tellers_pkey, 0}) >= 0);
  }
}
