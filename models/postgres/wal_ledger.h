// models/postgres/wal_ledger.h
//
// Bookkeeping for the crash report, kept beside the WAL but not PostgreSQL
// state: how many records, and how many first changes of a page, were
// inserted since each recent redo point (what recovery would replay and
// which of those carry or need a full-page image), and, when a run asks for
// it, the end LSN of every commit acknowledged to a client (to count the
// committed transactions a power loss takes away).
#pragma once

#include <cstdint>
#include <vector>

#include "models/postgres/buffer_pool.h"

namespace ckptsim::postgres {

class WalLedger {
 public:
  explicit WalLedger(Lsn initial_redo) { redo_marks_.push_back({initial_redo, {}}); }

  // XLogInsert of one record; `first_change`: the first change of its page since the redo point.
  void count_record(bool first_change) noexcept {
    ++records_total_;
    first_changes_total_ += first_change;
  }
  // A new redo point: the counts from here on are since it.
  void mark_redo(Lsn redo);

  // Records inserted since a redo point that mark_redo() saw (or the initial
  // one), and of them the first changes of a page since that point: with
  // full_page_writes those carry an image, without they make recovery read the page.
  struct SinceRedo {
    std::int64_t records = 0;
    std::int64_t first_changes = 0;
  };
  SinceRedo since_redo(Lsn redo) const;

  // Commits acknowledged to a client, by commit record end, when tracking is on
  // (only a run with --crash-at needs them: they cost 8 bytes each).
  void track_acknowledged_commits() { tracking_commits_ = true; }
  void commit_acknowledged(Lsn end) {
    if (tracking_commits_) acknowledged_.push_back(end);
  }
  // Acknowledged commits whose record ends after `lsn`, and all of them.
  std::int64_t acknowledged_after(Lsn lsn) const;
  std::int64_t acknowledged_commits() const { return static_cast<std::int64_t>(acknowledged_.size()); }

 private:
  // Cumulative since start (never reset with the statistics), and their values at each redo point.
  std::int64_t records_total_ = 0, first_changes_total_ = 0;
  struct RedoMark {
    Lsn redo;
    SinceRedo at;
  };
  std::vector<RedoMark> redo_marks_;
  bool tracking_commits_ = false;
  std::vector<Lsn> acknowledged_;  // commit record ends, in acknowledgement order
};

}  // namespace ckptsim::postgres
