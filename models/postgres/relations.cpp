// models/postgres/relations.cpp
//
// md.c over os::FileSystem: segment files, block addressing, and the
// durability bookkeeping of writes and fsyncs.
#include "models/postgres/relations.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/interrupt.h"

namespace ckptsim::postgres {

namespace {
Lsn older(Lsn a, Lsn b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); }
}  // namespace

RelationId Relations::create(std::string name, std::int64_t blocks) {
  if (blocks < 0) throw std::invalid_argument("a relation cannot have a negative size");
  const auto id = static_cast<RelationId>(rels_.size());
  Relation r;
  r.name = std::move(name);
  r.relfilenode = 16384 + id;  // FirstNormalObjectId: user relations' file names start there
  r.nblocks = blocks;
  r.page_lsn.reserve(static_cast<std::size_t>(blocks));  // filled segment by segment below
  r.last_page_tuples = 1 << 30;  // as loaded: the last page counts as full, the first insert extends
  rels_.push_back(std::move(r));
  // A relation always has its first segment file, even when empty.
  for (std::int64_t segno = 0; segno == 0 || segno * kBlocksPerSegment < blocks; ++segno) {
    sim::poll_interrupt();  // a stop request during setup (sim/interrupt.h): a 1.5 TB database takes a minute
    const std::int64_t in_seg = std::clamp<std::int64_t>(blocks - segno * kBlocksPerSegment, 0, kBlocksPerSegment);
    rels_.back().page_lsn.resize(rels_.back().page_lsn.size() + static_cast<std::size_t>(in_seg), 0);
    rels_.back().segments.push_back(add_segment(id, segno, in_seg));
  }
  return id;
}

void Relations::access_before_start(RelationId rel_id, std::int64_t first, std::int64_t count) {
  const Relation& r = rel(rel_id);
  if (first < 0 || count < 0 || first + count > r.nblocks) {
    throw std::invalid_argument(r.name + ": blocks outside the relation");
  }
  // Segment by segment, in block order, as one sequential pass over the files.
  for (std::int64_t b = first; b < first + count;) {
    const std::int64_t in_seg = b % kBlocksPerSegment;
    if (in_seg == 0) sim::poll_interrupt();  // once per 1 GB, however the caller slices it
    const std::int64_t n = std::min(first + count - b, kBlocksPerSegment - in_seg);
    fs_.access_before_start(segment(segment_of(rel_id, b)).file, in_seg, n);
    b += n;
  }
}

SegmentId Relations::add_segment(RelationId rel_id, std::int64_t segno, std::int64_t blocks) {
  const Relation& r = rel(rel_id);
  // base/<database oid>/<relfilenode>[.<segno>], as in PGDATA.
  const std::string path =
      segno > 0 ? fmt::format("base/16384/{}.{}", r.relfilenode, segno) : fmt::format("base/16384/{}", r.relfilenode);
  SegmentFile s;
  s.rel = rel_id;
  s.segno = segno;
  s.file = fs_.create(path, os::Volume::Data, blocks, kBlocksPerSegment);
  segments_.push_back(s);
  return static_cast<SegmentId>(segments_.size() - 1);
}

sim::Task<> Relations::read(const PgProc& proc, RelationId rel_id, std::int64_t block) {
  const SegmentFile& s = segment(segment_of(rel_id, block));
  const WaitScope waiting = report_wait(proc, WaitEvent::DataFileRead);
  co_await fs_.read(*proc.task, s.file, block % kBlocksPerSegment);
}

sim::Task<SegmentId> Relations::write(const PgProc& proc, RelationId rel_id, std::int64_t block, Lsn since) {
  const SegmentId seg = segment_of(rel_id, block);
  {
    const WaitScope waiting = report_wait(proc, WaitEvent::DataFileWrite);
    co_await fs_.write(*proc.task, segment(seg).file, block % kBlocksPerSegment);
  }
  // Only now is the page in the kernel's hands: an fsync that started earlier may not cover it.
  segment(seg).unsynced_since = older(segment(seg).unsynced_since, since);
  co_return seg;
}

sim::Task<SegmentId> Relations::extend(const PgProc& proc, RelationId rel_id) {
  Relation& r = rel(rel_id);
  const std::int64_t block = r.nblocks;
  if (block / kBlocksPerSegment >= static_cast<std::int64_t>(r.segments.size())) {
    r.segments.push_back(add_segment(rel_id, block / kBlocksPerSegment, 0));
  }
  r.nblocks = block + 1;
  r.page_lsn.push_back(0);
  const SegmentId seg = segment_of(rel_id, block);
  const WaitScope waiting = report_wait(proc, WaitEvent::DataFileExtend);
  co_await fs_.write(*proc.task, segment(seg).file, block % kBlocksPerSegment);
  co_return seg;
}

sim::Task<> Relations::fsync(const PgProc& proc, SegmentId seg) {
  if (!enable_fsync_) co_return;  // pg_fsync: the changes stay unsynced
  SegmentFile& s = segment(seg);
  s.syncing_since = older(s.syncing_since, s.unsynced_since);
  s.unsynced_since = 0;
  ++s.fsyncs_in_progress;
  {
    const WaitScope waiting = report_wait(proc, WaitEvent::DataFileSync);
    co_await fs_.fsync(*proc.task, s.file);
  }
  // Overlapping fsyncs of one file: the covered changes count as durable only when the last ends.
  if (--segment(seg).fsyncs_in_progress == 0) segment(seg).syncing_since = 0;
}

sim::Task<> Relations::writeback(const PgProc& proc, SegmentId seg, std::int64_t first_block_in_seg,
                                 std::int64_t count) {
  if (!enable_fsync_) co_return;  // pg_flush_data skips when fsyncs are disabled
  const WaitScope waiting = report_wait(proc, WaitEvent::DataFileFlush);
  co_await fs_.sync_file_range(*proc.task, segment(seg).file, first_block_in_seg, count);
}

}  // namespace ckptsim::postgres
