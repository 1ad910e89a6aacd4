// models/pgbench/page_accesses.h
//
// What the server's executor touches for one statement of a built-in script
// (pgbench.c's SQL run through PostgreSQL's heapam / nbtree), as a list of
// page accesses the client's backend then makes in order: B-tree descents of
// the primary keys, heap pages, HOT or non-HOT updates, the visibility map
// page of a page still all-visible since the load, history appends, and the
// row locks on tellers and branches (held to commit).
//
// The decisions that PostgreSQL takes when the statement starts (whether an
// update is HOT: a draw against hot_update_ratio) are taken here, before the
// first access, so the random stream is drawn in the statement's order.
// A non-HOT update's two block references are logged as two records whose
// sizes add up to the real one (the new version's page through
// Backend::insert). A row updated by a committed transaction that nobody has
// looked at since has versions without hint bits: the next statement to look
// at it sets them (PgbenchTables' *_unhinted). Left out: index-only scans,
// pruning, FSM lookups.
#pragma once

#include <array>
#include <cstdint>

#include "models/pgbench/scripts.h"
#include "models/pgbench/tables.h"
#include "sim/random.h"

namespace ckptsim::pgbench {

// An aggregate without member defaults, always built whole by add({...}), so
// that PageAccesses' array needs no initialization.
struct PageAccess {
  enum class Kind : std::uint8_t { Read, Modify, Insert, LockRow, Commit };
  Kind kind;
  postgres::RelationId rel;
  std::int64_t block;  // the row for LockRow, tuples per page for Insert
  int record_bytes;    // the WAL record of a Modify or Insert
  bool sets_hints;     // a Read or Modify that meets a row's versions not yet hinted
};

// At most 2 descents of 8 levels and 5 heap / map accesses: no allocation per
// statement, and only the accesses added are written (the 576-byte array is
// made per statement, on the hot path of every transaction).
class PageAccesses {
 public:
  static constexpr std::size_t kCapacity = 24;
  void add(PageAccess a) { items_.at(size_++) = a; }
  const PageAccess* begin() const noexcept { return items_.data(); }
  const PageAccess* end() const noexcept { return items_.data() + size_; }

 private:
  std::array<PageAccess, kCapacity> items_;
  std::size_t size_ = 0;
};

// One transaction's script variables and what its statements leave behind.
struct ScriptState {
  std::int64_t aid = 0, tid = 0, bid = 0;
  std::int64_t second_version_page = -1;  // set by a non-HOT update, for the SELECT after it
  bool account_updated = false;           // this transaction updated the aid row (its own versions need no hints)
};

// The accesses of `statement`; draws from `rng` (HOT or not) and marks the accounts page updated.
PageAccesses plan_statement(Statement statement, ScriptState& state, PgbenchTables& tables, double hot_update_ratio,
                            sim::Random& rng);

}  // namespace ckptsim::pgbench
