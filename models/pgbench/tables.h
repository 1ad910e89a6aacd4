// models/pgbench/tables.h
//
// The four tables and three primary keys that `pgbench -i -s SCALE` creates
// (initCreateTables, initGenerateData, initCreatePKeys in pgbench.c), with
// the sizes PostgreSQL 15 gives them. Measured here on `pgbench -i -s 10`
// (PostgreSQL 15.18, default fillfactors):
//   pgbench_accounts       1,000,000 rows  16394 pages   61 rows per page
//   pgbench_accounts_pkey  2745 pages: metapage, 2733 leaves (366 keys and a high key per
//                          leaf, built 90 % full), 10 internal pages, root;
//                          3 levels (bt_metap level 2)
//   pgbench_tellers, pgbench_branches: loaded with a NULL filler, so about
//                          185 rows per page: 100 tellers in 1 page; 2-page pkeys
//   pgbench_history        20000 rows in 129 pages after 20000 -N
//                          transactions: 155 rows per page
// Internal B-tree pages hold about 286 downlinks (built 70 % full): 2 levels
// at scale 1, 3 up to scale ~290, 4 beyond, as the reference says.
//
// Block layout: heap pages in key order (rows are loaded in aid order); the
// index's metapage is block 0, leaves follow in key order, then the
// internal levels, the root last. (nbtsort interleaves internal pages with
// the leaves as they fill; the difference does not matter for I/O locality.)
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "models/postgres/server.h"

namespace ckptsim::pgbench {

inline constexpr std::int64_t kAccountsPerScale = 100000;
inline constexpr std::int64_t kTellersPerScale = 10;
inline constexpr std::int64_t kAccountsPerPage = 61;    // fillfactor 100, char(84) filler
inline constexpr std::int64_t kSmallRowsPerPage = 185;  // tellers, branches: NULL filler
inline constexpr std::int64_t kBtreeKeysPerLeaf = 366;  // built 90 % full: 367 items, one is the high key
inline constexpr std::int64_t kBtreeDownlinksPerPage = 286;
inline constexpr int kHistoryRowsPerPage = 155;
inline constexpr std::int64_t kHeapPagesPerVmPage = 32672;  // 2 bits per heap page in 8168 bytes

// A B-tree's shape after CREATE INDEX on n sorted keys.
class BtreeShape {
 public:
  explicit BtreeShape(std::int64_t keys);
  int levels() const { return levels_; }
  std::int64_t blocks() const { return blocks_; }
  // The blocks a descent to `key` (0-based) pins, root first; returns how many.
  int path(std::int64_t key, std::array<std::int64_t, 8>& blocks) const;
  std::int64_t leaf_of(std::int64_t key) const { return 1 + key / kBtreeKeysPerLeaf; }

 private:
  std::array<std::int64_t, 8> level_first_{};  // first block of each level, leaves = level 0
  std::array<std::int64_t, 8> level_pages_{};
  std::int64_t blocks_ = 0;
  int levels_ = 0;
};

struct PgbenchTables {
  PgbenchTables(postgres::Server& server, std::int64_t scale);

  std::int64_t scale;
  std::int64_t accounts_rows, tellers_rows, branches_rows;
  BtreeShape accounts_index, tellers_index, branches_index;
  postgres::RelationId accounts, accounts_pkey, tellers, tellers_pkey, branches, branches_pkey, history;
  // pgbench_accounts' visibility map fork (pgbench -i vacuums: every page all-visible).
  postgres::RelationId accounts_vm;

  // Whether an accounts page has been updated since the load. Loaded at
  // fillfactor 100, a page has 116 free bytes, less than a new row version
  // (132), so its first UPDATE cannot be HOT: the new version goes to the end
  // of the table and into the index. Pruning that page later makes room, and
  // later updates are mostly HOT. Kept across the warmup and the run, as the
  // database is.
  std::vector<bool> accounts_updated;
  // Rows whose newest versions were written by a transaction that nobody has
  // looked at since: their hint bits (HEAP_XMIN_COMMITTED, HEAP_XMAX_COMMITTED)
  // are still unset. pgbench -i's VACUUM leaves every row hinted.
  std::vector<bool> accounts_unhinted, tellers_unhinted, branches_unhinted;

  static std::int64_t account_block(std::int64_t aid) { return aid / kAccountsPerPage; }  // 0-based
  static std::int64_t small_row_block(std::int64_t row) { return row / kSmallRowsPerPage; }
  // SELECT count(*) FROM pgbench_history: one row per simple-update / tpcb
  // transaction since pgbench -i (kHistoryRowsPerPage to a page).
  std::int64_t history_rows(postgres::Server& server) const;
  // Pages of the database as pgbench -i leaves it.
  static std::int64_t database_blocks(std::int64_t scale);
};

}  // namespace ckptsim::pgbench
