// models/pgbench/page_accesses.cpp
//
// The built-in scripts' statements as page accesses (see page_accesses.h).
#include "models/pgbench/page_accesses.h"

namespace ckptsim::pgbench {

namespace {
// WAL record sizes (reference 4.3, 9.5+ format).
constexpr int kHotUpdateRecord = 75;
constexpr int kNonHotUpdateRecord = 176;  // old page's part + the new version's page
constexpr int kNewVersionPart = 110;      // the new tuple, logged with the new version's page
constexpr int kBtreeInsertRecord = 64;
constexpr int kHistoryInsertRecord = 80;

using Kind = PageAccess::Kind;

void read_path(PageAccesses& out, postgres::RelationId index, const std::array<std::int64_t, 8>& path, int levels) {
  for (int i = 0; i < levels; ++i) out.add({Kind::Read, index, path[static_cast<std::size_t>(i)], 0, false});
}

void plan_accounts(Statement st, ScriptState& s, PgbenchTables& t, double hot_update_ratio, sim::Random& rng,
                   PageAccesses& out) {
  std::array<std::int64_t, 8> path{};
  const int n = t.accounts_index.path(s.aid, path);
  read_path(out, t.accounts_pkey, path, n);
  const std::int64_t heap = PgbenchTables::account_block(s.aid);
  const auto row = static_cast<std::size_t>(s.aid);
  if (st == Statement::SelectAccounts) {
    if (s.second_version_page == heap) out.add({Kind::Read, t.accounts, heap, 0, false});
    const bool hints = !s.account_updated && t.accounts_unhinted[row];
    if (hints) t.accounts_unhinted[row] = false;
    out.add({Kind::Read, t.accounts, heap, 0, hints});
    return;
  }
  const bool hints = t.accounts_unhinted[row];
  t.accounts_unhinted[row] = true;  // this transaction's versions, once it commits
  s.account_updated = true;
  const auto page = static_cast<std::size_t>(heap);
  const bool first = !t.accounts_updated[page];
  const bool hot = !first && rng.uniform01() < hot_update_ratio;
  t.accounts_updated[page] = true;
  // A page still all-visible since the load: heap_update pins its visibility map page.
  if (first) out.add({Kind::Read, t.accounts_vm, heap / kHeapPagesPerVmPage, 0, false});
  if (hot) {
    out.add({Kind::Modify, t.accounts, heap, kHotUpdateRecord, hints});
    return;
  }
  // Not HOT: the new version goes to the table's last page, and the index
  // gets an entry for it through a fresh descent (_bt_doinsert), whose
  // uniqueness check visits the old version's heap page.
  out.add({Kind::Modify, t.accounts, heap, kNonHotUpdateRecord - kNewVersionPart, hints});
  out.add({Kind::Insert, t.accounts, kAccountsPerPage, kNewVersionPart, false});
  read_path(out, t.accounts_pkey, path, n - 1);
  out.add({Kind::Read, t.accounts, heap, 0, false});
  out.add({Kind::Modify, t.accounts_pkey, t.accounts_index.leaf_of(s.aid), kBtreeInsertRecord, false});
  // The row now has two index entries: later scans of this aid in the
  // transaction (the SELECT) visit the dead version's page too.
  s.second_version_page = heap;
}

// Tellers and branches, both tiny: the row lock (held to commit), a descent of the pkey, the HOT update.
void plan_small_table(Statement st, const ScriptState& s, PgbenchTables& t, PageAccesses& out) {
  const bool teller = st == Statement::UpdateTellers;
  const postgres::RelationId heap = teller ? t.tellers : t.branches;
  const std::int64_t row = teller ? s.tid : s.bid;
  out.add({Kind::LockRow, heap, row, 0, false});
  std::array<std::int64_t, 8> path{};
  const int n = (teller ? t.tellers_index : t.branches_index).path(row, path);
  read_path(out, teller ? t.tellers_pkey : t.branches_pkey, path, n);
  std::vector<bool>& unhinted = teller ? t.tellers_unhinted : t.branches_unhinted;
  const bool hints = unhinted[static_cast<std::size_t>(row)];
  unhinted[static_cast<std::size_t>(row)] = true;
  out.add({Kind::Modify, heap, PgbenchTables::small_row_block(row), kHotUpdateRecord, hints});
}
}  // namespace

PageAccesses plan_statement(Statement statement, ScriptState& state, PgbenchTables& tables, double hot_update_ratio,
                            sim::Random& rng) {
  PageAccesses out;
  switch (statement) {
    case Statement::Begin: break;
    case Statement::SelectAccounts:
    case Statement::UpdateAccounts: plan_accounts(statement, state, tables, hot_update_ratio, rng, out); break;
    case Statement::UpdateTellers:
    case Statement::UpdateBranches: plan_small_table(statement, state, tables, out); break;
    case Statement::InsertHistory:
      out.add({Kind::Insert, tables.history, kHistoryRowsPerPage, kHistoryInsertRecord, false});
      break;
    case Statement::End: out.add({Kind::Commit, -1, 0, 0, false}); break;
  }
  return out;
}

}  // namespace ckptsim::pgbench
