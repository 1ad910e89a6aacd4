// models/postgres/lmgr.h
//
// The heavyweight locks a pgbench transaction meets (lmgr.c, heapam.c):
//
// - the relation extension lock (LockRelationForExtension): one extender of
//   a relation at a time;
// - row locks taken by UPDATE and held to commit: heap_lock_tuple's first
//   waiter waits for the owner's transaction (XactLockTableWait,
//   Lock:transactionid), later ones queue on its tuple lock (Lock:tuple).
//
// A transaction's end is what row-lock waiters wait for: the owning Backend
// notifies them when it releases its locks.
//
// Left out: the general lock manager (modes, the fast path, the shared hash
// table), deadlock detection (pgbench takes its rows in a fixed order).
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/postgres/buffer_pool.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

class Backend;

class LockTable {
 public:
  explicit LockTable(sim::Simulator& sim) noexcept : sim_(sim) {}

  // One per relation, created with it.
  void add_relation() { extension_locks_.emplace_back(sim_); }
  sim::LWLock& extension_lock(RelationId rel) { return extension_locks_[static_cast<std::size_t>(rel)]; }

  // A granted row lock, and who holds it.
  struct RowLock {
    RelationId rel;
    std::int64_t row;
    Backend* owner;
    int waiters = 0;  // the first waits for the owner's transaction, later ones for its tuple lock
  };
  RowLock* row_lock(RelationId rel, std::int64_t row) {
    for (RowLock& l : row_locks_) {
      if (l.rel == rel && l.row == row) return &l;
    }
    return nullptr;
  }
  void grant_row_lock(RelationId rel, std::int64_t row, Backend* owner) {
    row_locks_.push_back(RowLock{rel, row, owner});
  }
  // At transaction end: the owner's row locks go (the owner wakes its waiters).
  void release_row_locks(const Backend* owner) {
    row_locks_.erase(
        std::remove_if(row_locks_.begin(), row_locks_.end(), [owner](const RowLock& l) { return l.owner == owner; }),
        row_locks_.end());
  }

 private:
  sim::Simulator& sim_;
  std::deque<sim::LWLock> extension_locks_;
  std::vector<RowLock> row_locks_;
};

}  // namespace ckptsim::postgres
