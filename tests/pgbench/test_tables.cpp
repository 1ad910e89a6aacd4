// The pgbench schema's geometry against `pgbench -i` on PostgreSQL 15.
#include <doctest/doctest.h>

#include "models/pgbench/tables.h"

using namespace ckptsim::pgbench;

TEST_CASE("accounts_pkey at scale 10 has the shape PostgreSQL 15 built: 2745 pages, 3 levels") {
  // Measured: pg_relation_size 2745 pages; bt_metap level 2; 2733 leaves, 10 internal pages, 1 root.
  const BtreeShape index(10 * kAccountsPerScale);
  CHECK(index.blocks() == 2745);
  CHECK(index.levels() == 3);
}

TEST_CASE("a B-tree descent pins root, internal and leaf, root first") {
  const BtreeShape index(10 * kAccountsPerScale);
  std::array<std::int64_t, 8> path{};
  REQUIRE(index.path(0, path) == 3);
  CHECK(path[0] == 2744);  // the root: the last block
  CHECK(path[1] == 2734);  // first internal page, after the 2733 leaves (blocks 1..2733)
  CHECK(path[2] == 1);     // first leaf; block 0 is the metapage
  // The last key: last leaf, last internal page.
  REQUIRE(index.path(10 * kAccountsPerScale - 1, path) == 3);
  CHECK(path[1] == 2743);
  CHECK(path[2] == 2733);
  CHECK(index.leaf_of(10 * kAccountsPerScale - 1) == 2733);
}

TEST_CASE("index height: 2 levels at scale 1, 3 at 100, 4 at 1000") {
  CHECK(BtreeShape(1 * kAccountsPerScale).levels() == 2);
  CHECK(BtreeShape(100 * kAccountsPerScale).levels() == 3);
  CHECK(BtreeShape(1000 * kAccountsPerScale).levels() == 4);
  CHECK(BtreeShape(10).levels() == 1);  // tellers / branches: the root is the only leaf
}

TEST_CASE("scale 10 is 19143 pages: accounts 16394 + pkey 2745 + tellers/branches and their pkeys") {
  // 16394 + 2745 + 1 (tellers) + 2 (tellers_pkey) + 1 (branches) + 2 (branches_pkey)
  CHECK(PgbenchTables::database_blocks(10) == 19145);
  CHECK(PgbenchTables::account_block(60) == 0);
  CHECK(PgbenchTables::account_block(61) == 1);
}
