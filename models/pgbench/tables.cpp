#include "models/pgbench/tables.h"

#include <algorithm>

namespace ckptsim::pgbench {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
}  // namespace

BtreeShape::BtreeShape(std::int64_t keys) {
  // Leaves from block 1 (block 0 is the metapage), then each level above, up to a single root.
  std::int64_t pages = std::max<std::int64_t>(1, ceil_div(keys, kBtreeKeysPerLeaf));
  std::int64_t next = 1;
  for (;;) {
    const auto l = static_cast<std::size_t>(levels_++);
    level_first_[l] = next;
    level_pages_[l] = pages;
    next += pages;
    if (pages == 1 || levels_ == static_cast<int>(level_first_.size())) break;
    pages = ceil_div(pages, kBtreeDownlinksPerPage);
  }
  blocks_ = next;
}

int BtreeShape::path(std::int64_t key, std::array<std::int64_t, 8>& blocks) const {
  // Page index of the key at each level: leaf = key / keys per leaf, above = below / downlinks.
  std::array<std::int64_t, 8> index{};
  index[0] = key / kBtreeKeysPerLeaf;
  for (int l = 1; l < levels_; ++l)
    index[static_cast<std::size_t>(l)] = index[static_cast<std::size_t>(l - 1)] / kBtreeDownlinksPerPage;
  int n = 0;
  for (int l = levels_ - 1; l >= 0; --l) {
    const auto i = static_cast<std::size_t>(l);
    blocks[static_cast<std::size_t>(n++)] = level_first_[i] + index[i];
  }
  return n;
}

PgbenchTables::PgbenchTables(postgres::Server& server, std::int64_t s)
    : scale(s),
      accounts_rows(kAccountsPerScale * s),
      tellers_rows(kTellersPerScale * s),
      branches_rows(s),
      accounts_index(accounts_rows),
      tellers_index(tellers_rows),
      branches_index(branches_rows) {
  branches = server.create_relation("pgbench_branches", ceil_div(branches_rows, kSmallRowsPerPage));
  tellers = server.create_relation("pgbench_tellers", ceil_div(tellers_rows, kSmallRowsPerPage));
  accounts = server.create_relation("pgbench_accounts", ceil_div(accounts_rows, kAccountsPerPage));
  accounts_updated.assign(static_cast<std::size_t>(ceil_div(accounts_rows, kAccountsPerPage)), false);
  accounts_unhinted.assign(static_cast<std::size_t>(accounts_rows), false);
  tellers_unhinted.assign(static_cast<std::size_t>(tellers_rows), false);
  branches_unhinted.assign(static_cast<std::size_t>(branches_rows), false);
  history = server.create_relation("pgbench_history", 0);  // truncated before each run
  accounts_vm = server.create_relation("pgbench_accounts_vm",
                                       ceil_div(ceil_div(accounts_rows, kAccountsPerPage), kHeapPagesPerVmPage));
  branches_pkey = server.create_relation("pgbench_branches_pkey", branches_index.blocks());
  tellers_pkey = server.create_relation("pgbench_tellers_pkey", tellers_index.blocks());
  accounts_pkey = server.create_relation("pgbench_accounts_pkey", accounts_index.blocks());
}

std::int64_t PgbenchTables::database_blocks(std::int64_t s) {
  return ceil_div(kAccountsPerScale * s, kAccountsPerPage) + BtreeShape(kAccountsPerScale * s).blocks() +
         ceil_div(kTellersPerScale * s, kSmallRowsPerPage) + BtreeShape(kTellersPerScale * s).blocks() +
         ceil_div(s, kSmallRowsPerPage) + BtreeShape(s).blocks();
}

std::int64_t PgbenchTables::history_rows(postgres::Server& server) const {
  const postgres::Relation& r = server.relations().rel(history);
  if (r.nblocks == 0) return 0;
  return (r.nblocks - 1) * kHistoryRowsPerPage + std::min<std::int64_t>(r.last_page_tuples, kHistoryRowsPerPage);
}

}  // namespace ckptsim::pgbench
