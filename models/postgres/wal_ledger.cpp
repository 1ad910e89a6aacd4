// models/postgres/wal_ledger.cpp
#include "models/postgres/wal_ledger.h"

#include <algorithm>

namespace ckptsim::postgres {

void WalLedger::mark_redo(Lsn redo) {
  redo_marks_.push_back({redo, {records_total_, first_changes_total_}});
  if (redo_marks_.size() > 8) redo_marks_.erase(redo_marks_.begin());  // recovery starts at one of the last two
}

WalLedger::SinceRedo WalLedger::since_redo(Lsn redo) const {
  for (auto mark = redo_marks_.rbegin(); mark != redo_marks_.rend(); ++mark) {
    if (mark->redo == redo) return {records_total_ - mark->at.records, first_changes_total_ - mark->at.first_changes};
  }
  return {records_total_, first_changes_total_};  // older than the marks kept: everything, an upper bound
}

std::int64_t WalLedger::acknowledged_after(Lsn lsn) const {
  // Group commit wakes its waiters in no LSN order, so the list is not sorted: count.
  return std::count_if(acknowledged_.begin(), acknowledged_.end(), [lsn](Lsn end) { return end > lsn; });
}

}  // namespace ckptsim::postgres
