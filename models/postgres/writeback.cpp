// models/postgres/writeback.cpp
//
// Sorting, merging and issuing pending writebacks.
#include "models/postgres/writeback.h"

#include <algorithm>

namespace ckptsim::postgres {

std::int64_t flush_after_pages(const Version& version, sim::Bytes flush_after) {
  return version.at_least(90600) ? flush_after / os::kBlockBytes : 0;
}

WritebackContext::WritebackContext(Relations& rels, std::int64_t flush_after_pages, std::int64_t* blocks_counter)
    : rels_(rels), limit_(std::clamp<std::int64_t>(flush_after_pages, 0, 256)), blocks_counter_(blocks_counter) {
  pending_.reserve(static_cast<std::size_t>(limit_));
}

void WritebackContext::set_flush_after(std::int64_t flush_after_pages) {
  limit_ = std::clamp<std::int64_t>(flush_after_pages, 0, 256);
  pending_.reserve(static_cast<std::size_t>(limit_));
}

sim::Task<> WritebackContext::schedule(const PgProc& proc, RelationId rel, std::int64_t block) {
  if (limit_ <= 0) co_return;
  pending_.push_back(BufferTag{rel, block});
  if (static_cast<std::int64_t>(pending_.size()) >= limit_) co_await issue(proc);
}

sim::Task<> WritebackContext::issue(const PgProc& proc) {
  if (pending_.empty()) co_return;
  // Relations are numbered in relfilenode order, so (rel, block) is PostgreSQL's tag order.
  std::sort(pending_.begin(), pending_.end(),
            [](const BufferTag& a, const BufferTag& b) { return a.rel != b.rel ? a.rel < b.rel : a.block < b.block; });
  // Take the list (a context belongs to one process, so issue() is never re-entered).
  issuing_.swap(pending_);
  pending_.clear();
  const std::vector<BufferTag>& tags = issuing_;
  const auto blocks = static_cast<std::int64_t>(tags.size());
  std::size_t i = 0;
  while (i < tags.size()) {
    const BufferTag first = tags[i];
    const SegmentId seg = rels_.segment_of(first.rel, first.block);
    std::int64_t end = first.block + 1;
    std::size_t j = i + 1;
    // Extend the run over duplicates and the next blocks of the same segment file.
    while (j < tags.size() && tags[j].rel == first.rel && tags[j].block <= end &&
           rels_.segment_of(tags[j].rel, tags[j].block) == seg) {
      end = std::max(end, tags[j].block + 1);
      ++j;
    }
    ++calls_;
    co_await rels_.writeback(proc, seg, first.block % kBlocksPerSegment, end - first.block);
    i = j;
  }
  // Counted once the requests are issued, as 16's IssuePendingWritebacks does.
  if (blocks_counter_ != nullptr) *blocks_counter_ += blocks;
}

}  // namespace ckptsim::postgres
