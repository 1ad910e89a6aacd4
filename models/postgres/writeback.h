// models/postgres/writeback.h
//
// WritebackContext (bufmgr.c, 9.6+): the *_flush_after settings. A process
// remembers the tags it wrote; when flush_after pages have accumulated it
// sorts them, merges runs of consecutive blocks of one segment file
// (duplicates skipped) and asks the kernel to start writing each run back
// with sync_file_range(SYNC_FILE_RANGE_WRITE). The checkpointer issues the
// remainder at the end of BufferSync. flush_after = 0 disables it.
#pragma once

#include <cstdint>
#include <vector>

#include "models/postgres/relations.h"
#include "models/postgres/version.h"
#include "sim/time.h"

namespace ckptsim::postgres {

// A *_flush_after setting in pages as `version` applies it: the settings exist
// from 9.6, and before that no process asks for writeback (0).
std::int64_t flush_after_pages(const Version& version, sim::Bytes flush_after);

class WritebackContext {
 public:
  // blocks_counter, if given, counts the blocks of every IssuePendingWritebacks
  // (pending tags, duplicates included), as 16's pg_stat_io writebacks does.
  WritebackContext(Relations& rels, std::int64_t flush_after_pages, std::int64_t* blocks_counter = nullptr);

  // ScheduleBufferTagForWriteback: remember one written block; issues when the limit is reached.
  sim::Task<> schedule(const PgProc& proc, RelationId rel, std::int64_t block);
  // IssuePendingWritebacks.
  sim::Task<> issue(const PgProc& proc);

  std::int64_t flush_after() const noexcept { return limit_; }
  // A reload's new *_flush_after: bufmgr.c's context points at the GUC
  // variable, so the next ScheduleBufferTagForWriteback compares against it.
  void set_flush_after(std::int64_t flush_after_pages);
  std::int64_t calls() const noexcept { return calls_; }

 private:
  Relations& rels_;
  std::int64_t limit_;
  std::vector<BufferTag> pending_;
  std::vector<BufferTag> issuing_;
  std::int64_t calls_ = 0;
  std::int64_t* blocks_counter_;
};

}  // namespace ckptsim::postgres
