// models/postgres/relations.h
//
// Relations and their files: smgr / md.c. A relation (one fork, main) is a
// chain of 1 GB segment files of 131072 blocks (RELSEG_SIZE), created through
// os::FileSystem on the Data volume. Blocks are addressed by relation block
// number; md.c maps them to (segment file, block in segment). fsync requests
// name a segment file: that is the granularity of the checkpoint's sync
// phase.
//
// Besides md.c's state, a Relation holds two things PostgreSQL keeps
// elsewhere, because no page contents are modelled:
// - each page's LSN (pd_lsn in the page header: the end of the last WAL record
//   that changed it), so that an evicted page read back in still knows
//   whether its next change needs a full-page image;
// - how many tuples its last page holds: the heap's insert target
//   (RelationGetBufferForTuple), shared by every inserting backend.
//
// For check_durability, each segment keeps the oldest LSN among changes it
// received through write() but has not yet had fsync'ed (and of those under
// an fsync in progress). That is bookkeeping, not PostgreSQL state.
//
// Left out: forks other than main (FSM, visibility map), tablespaces (one),
// truncation and dropping relations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/os/file_system.h"
#include "models/postgres/buffer_pool.h"
#include "models/postgres/proc.h"

namespace ckptsim::postgres {

inline constexpr std::int64_t kBlocksPerSegment = 131072;  // RELSEG_SIZE: 1 GB of 8 kB blocks
using SegmentId = std::int32_t;                            // index into Relations' table of segment files

struct SegmentFile {
  RelationId rel = -1;
  std::int64_t segno = 0;
  os::FileId file = -1;
  Lsn unsynced_since = 0;  // oldest change written since the last fsync started (0: none)
  Lsn syncing_since = 0;   // oldest change covered by the fsync(s) in progress
  int fsyncs_in_progress = 0;
};

struct Relation {
  std::string name;
  std::int64_t relfilenode = 0;
  std::int64_t nblocks = 0;
  std::vector<SegmentId> segments;
  std::vector<Lsn> page_lsn;          // per block
  std::int64_t last_page_tuples = 0;  // heap: tuples on the last page, the insert target
};

class Relations {
 public:
  // enable_fsync false is fsync = off: fsync() and writeback() return at once
  // (pg_fsync, pg_flush_data in fd.c).
  explicit Relations(os::FileSystem& fs, bool enable_fsync = true) : fs_(fs), enable_fsync_(enable_fsync) {}

  RelationId create(std::string name, std::int64_t blocks);
  Relation& rel(RelationId id) { return rels_[static_cast<std::size_t>(id)]; }
  const Relation& rel(RelationId id) const { return rels_[static_cast<std::size_t>(id)]; }
  std::int32_t count() const noexcept { return static_cast<std::int32_t>(rels_.size()); }
  SegmentFile& segment(SegmentId id) { return segments_[static_cast<std::size_t>(id)]; }
  const SegmentFile& segment(SegmentId id) const { return segments_[static_cast<std::size_t>(id)]; }
  std::int32_t segment_count() const noexcept { return static_cast<std::int32_t>(segments_.size()); }

  SegmentId segment_of(RelationId rel, std::int64_t block) const {
    return this->rel(rel).segments[static_cast<std::size_t>(block / kBlocksPerSegment)];
  }

  // mdread: pread of one block.
  sim::Task<> read(const PgProc& proc, RelationId rel, std::int64_t block);
  // mdwrite: pwrite of one block; `since` is the oldest change the page carries
  // (durability bookkeeping). Returns the segment to register for fsync.
  sim::Task<SegmentId> write(const PgProc& proc, RelationId rel, std::int64_t block, Lsn since);
  // mdextend: a new zeroed block at the end (a new segment file every 1 GB).
  sim::Task<SegmentId> extend(const PgProc& proc, RelationId rel);
  // mdsync / ProcessSyncRequests' fsync of one segment file.
  sim::Task<> fsync(const PgProc& proc, SegmentId seg);
  // Blocks [first, first + count) of the relation as buffered I/O before the
  // simulation started left them in the page cache (os::FileSystem::access_before_start).
  void access_before_start(RelationId rel, std::int64_t first, std::int64_t count);
  // The writeback of a run of blocks of one segment (sync_file_range WRITE).
  sim::Task<> writeback(const PgProc& proc, SegmentId seg, std::int64_t first_block_in_seg, std::int64_t count);

 private:
  SegmentId add_segment(RelationId rel, std::int64_t segno, std::int64_t blocks);

  os::FileSystem& fs_;
  bool enable_fsync_;
  std::vector<Relation> rels_;
  std::vector<SegmentFile> segments_;
};

}  // namespace ckptsim::postgres
