// models/os/writepages.cpp
//
// write_cache_pages as ext4_da_writepages runs it, and the completion of
// its bios (writepages.h says what is modelled).
#include "models/os/writepages.h"

#include <algorithm>
#include <numeric>

namespace ckptsim::os {

// One write_cache_pages call: the scan's range and position, and the extent
// being built (mpage_da_data) with the handle it is mapped under. Under
// os.writepages_scan "ext4-da" (`rescan`) the pass is ext4_da_writepages'
// loop of write_cache_pages_da calls, one extent each: `call_start` is where
// the current call's lookup began and `done_index` its done_index.
struct Writepages::Pass {
  Inode& in;
  const WritebackControl& wbc;
  Plug& plug;
  BlockDevice& q;
  OsTask* task;
  sim::StateClock<IoLayer>* layers;
  bool da_writepages;
  bool ext4_da;  // ext4_da_writepages' loop (os.writepages_scan "ext4-da")
  bool rescan;
  std::int64_t start, end, range_start, range_end;
  std::int64_t index;
  bool wrapped;
  std::int64_t nr_to_write;  // wbc's, with ext4's bump
  std::int64_t budget;       // nr_to_write, bounded by the tag pass
  std::int64_t call_start;
  std::int64_t done_index;
  std::int64_t written = 0;
  Bio* bio = nullptr;
  Jbd2Journal::Handle handle{};
};

// ext4_num_dirty_pages: the delayed-allocation blocks dirty in a row from
// `from`, up to s_max_writeback_mb_bump (128 MB). ext4_da_writepages raises
// a cyclic pass's nr_to_write to it, so an appended file is written in one
// piece; overwritten (mapped) blocks count nothing.
std::int64_t Writepages::num_dirty_delayed(const Inode& in, std::int64_t from) {
  constexpr std::int64_t kMaxWritebackMbBump = 128 * sim::kMiB / kBlockBytes;
  if (from < in.allocated) return 0;
  std::int64_t n = 0;
  for (std::int64_t b = from; b < in.size && n < kMaxWritebackMbBump; ++b, ++n) {
    const CachedBlock& block = in.blocks[static_cast<std::size_t>(b)];
    if (!block.has(kDirty) || block.has(kWriteback)) break;
  }
  return n;
}

Writepages::Pass Writepages::start_pass(Inode& in, const WritebackControl& wbc, Plug& plug) {
  const bool cyclic = wbc.range_cyclic;
  const std::int64_t start = cyclic ? in.writeback_index : wbc.range_start;
  const std::int64_t end = std::min(cyclic ? in.size : wbc.range_end, in.size);
  const bool da_writepages = journaled(journal_, in) && wbc.reason != WbReason::Journal;
  const bool ext4_da = da_writepages && config_.writepages_scan == WritepagesScan::Ext4Da;
  const bool range_whole = wbc.range_start == 0 && wbc.range_end == INT64_MAX;
  std::int64_t nr_to_write = wbc.nr_to_write;
  if (ext4_da && (cyclic || !range_whole)) nr_to_write = std::max(nr_to_write, num_dirty_delayed(in, start));
  std::int64_t budget = nr_to_write;
  if (wbc.sync_mode == SyncMode::All) {
    // tag_pages_for_writeback: only the blocks dirty now.
    std::int64_t tagged = 0;
    for (std::int64_t b = in.next_dirty(start, end); b < end; b = in.next_dirty(b + 1, end)) ++tagged;
    budget = std::min(budget, tagged);
  }
  OsTask* const task = wbc.pid > 0 ? &tasks_[static_cast<std::size_t>(wbc.pid - 1)] : nullptr;
  const std::int64_t range_start = cyclic ? 0 : start;
  return Pass{.in = in,
              .wbc = wbc,
              .plug = plug,
              .q = queue(in),
              .task = task,
              .layers = task != nullptr ? &task->io_layers : nullptr,
              .da_writepages = da_writepages,
              .ext4_da = ext4_da,
              // With PAGECACHE_TAG_TOWRITE (WB_SYNC_ALL) a lookup from the start finds
              // only blocks not yet written: the same as scanning on.
              .rescan = ext4_da && wbc.sync_mode == SyncMode::None,
              .start = start,
              .end = end,
              .range_start = range_start,
              .range_end = end,
              .index = start,
              .wrapped = !cyclic || start <= range_start,
              .nr_to_write = nr_to_write,
              .budget = budget,
              .call_start = start,
              .done_index = start};
}

// The next dirty block from the scan's index; a cyclic scan wraps once to
// the start of the file (ext4-da: only when the pass has written nothing,
// ext4_da_writepages' `!io_done && !cycled`). False when the range is done.
bool Writepages::next_dirty_block(Pass& p, std::int64_t& b) {
  for (;;) {
    b = p.in.next_dirty(p.index, p.end);
    if (b < p.end) {
      p.done_index = b + 1;
      return true;
    }
    if (p.wrapped) return false;
    if (p.ext4_da && p.written > 0) return false;
    p.wrapped = true;
    p.end = p.start;
    p.index = p.call_start = p.done_index = p.range_start;
  }
}

// ext4-da: the extent ends (a gap, or the end of the range): submit it; the
// next write_cache_pages_da call looks up dirty pages from the pass's start
// again, so a page dirtied behind the cursor meanwhile is written next.
sim::Task<> Writepages::end_extent(Pass& p) {
  co_await submit(p);
  p.index = p.done_index = p.call_start;
}

// The extent is complete: submit its bio, and stop its handle.
sim::Task<> Writepages::submit(Pass& p) {
  co_await p.q.submit_bio(*p.bio, &p.plug, p.layers);
  p.bio = nullptr;
  p.handle.stop();
}

// WB_SYNC_ALL meets a block under writeback: submit what we have, then wait for that write.
sim::Task<> Writepages::wait_on_page_writeback(Pass& p, std::int64_t b) {
  if (p.bio != nullptr) co_await p.q.submit_bio(*p.bio, &p.plug, p.layers);
  p.bio = nullptr;
  p.handle.stop();
  p.q.unplug(p.plug);
  co_await wait_on_page_bit(cache_, p.task, p.in, b, kWriteback);
}

// mpage_da_map_and_submit's allocation: it changes size and blocks in this
// transaction (fdatasync must commit it), and files the inode for ordered data.
void Writepages::map_delayed_block(Inode& in, std::int64_t b) {
  in.allocated = b + 1;
  in.sync_tid = in.datasync_tid = journal_.running_tid();
  journal_.file_inode(in.id);
}

// clear_page_dirty_for_io + set_page_writeback, then bio_add_page or a new bio.
void Writepages::write_block(Pass& p, std::int64_t b, bool joins) {
  Inode& in = p.in;
  cache_.start_writeback(in, b);
  // An fsync waiting on the inode now waits for the queue again.
  if (in.writeback_wait.waiters() > 0 && in.nr_writeback == in.nr_writeback_at_device + 1)
    in.writeback_wait.notify_all();
  ++started_[static_cast<std::size_t>(p.wbc.reason)];
  ++p.written;
  p.index = b + 1;
  if (joins) {
    p.bio->bytes += kBlockBytes;
    return;
  }
  Bio& bio = bios_.get(*this);
  bio.op = disk::Op::Write;
  bio.sync = p.wbc.sync_mode == SyncMode::All;
  bio.pid = p.wbc.pid;
  bio.file = in.id;
  bio.first_block = b;
  bio.sector = in.sector_of(b);
  bio.bytes = kBlockBytes;
  p.bio = &bio;
}

sim::Task<std::int64_t> Writepages::write_pages(Inode& in, const WritebackControl& wbc, Plug& plug) {
  Pass p = start_pass(in, wbc, plug);
  std::int64_t b = 0;
  while (p.written < p.budget) {
    if (!next_dirty_block(p, b)) {
      if (!p.rescan || p.bio == nullptr) break;
      co_await end_extent(p);
      continue;
    }
    if (in.blocks[static_cast<std::size_t>(b)].has(kWriteback)) {
      if (wbc.sync_mode == SyncMode::None) {
        p.index = b + 1;
      } else {
        co_await wait_on_page_writeback(p, b);
        p.index = b;
      }
      continue;
    }
    const bool delayed = b >= in.allocated;
    if (delayed && !p.da_writepages) {
      p.index = b + 1;
      continue;
    }
    const bool joins = extends(p.bio, b, p.q);
    if (!joins) {
      if (p.bio != nullptr) {
        const bool gap = p.bio->first_block + p.bio->bytes / kBlockBytes != b;
        if (p.rescan && gap) {
          co_await end_extent(p);
        } else {
          co_await submit(p);
        }
        continue;  // the submission may have slept: look at the block again
      }
      if (p.da_writepages && !p.handle && (config_.writepages_holds_handle || delayed)) {
        p.handle = journal_.try_start_handle();
        if (!p.handle) {
          p.q.unplug(p.plug);  // about to sleep
          co_await journal_.wait_transaction_unlocked(p.task);
          continue;  // look again: the block may have changed meanwhile
        }
      }
    }
    if (delayed) map_delayed_block(in, b);
    write_block(p, b, joins);
  }
  if (p.bio != nullptr) co_await p.q.submit_bio(*p.bio, &p.plug, p.layers);
  p.handle.stop();
  update_writeback_index(p);
  co_return p.written;
}

// Where the next cyclic pass starts. write_cache_pages: after the last block
// written (0 at the end of the file). ext4_da_writepages: the last
// write_cache_pages_da call's done_index, for a cyclic pass and for a whole-file
// one with budget left (an fsync); a pass that ran out of blocks ended with a
// call that found none, whose done_index is where that call started, so a pass
// that wrote up to the end of the file starts the next one where it started.
void Writepages::update_writeback_index(Pass& p) {
  const WritebackControl& wbc = p.wbc;
  if (!p.ext4_da) {
    if (wbc.range_cyclic) p.in.writeback_index = p.index >= p.range_end ? 0 : p.index;
    return;
  }
  const bool budget_used = p.written >= p.nr_to_write;
  const bool range_whole = wbc.range_start == 0 && wbc.range_end == INT64_MAX;
  if (!wbc.range_cyclic && !(range_whole && !budget_used)) return;
  p.in.writeback_index = budget_used || p.rescan ? p.done_index : p.call_start;
}

sim::Task<std::int64_t> Writepages::write_range(Inode& in, const WritebackControl& wbc) {
  Plug plug;
  const std::int64_t written = co_await write_pages(in, wbc, plug);
  queue(in).unplug(plug);
  co_return written;
}

// journal_submit_data_buffers for one filed inode: generic_writepages, no handle.
sim::Task<> Writepages::submit_data(OsTask& task, FileId file) {
  co_await write_range(cache_.inode(file), {.sync_mode = SyncMode::All, .reason = WbReason::Journal, .pid = task.pid});
}

sim::Task<> Writepages::wait_data(OsTask& task, FileId file) { co_await wait_on_writeback(task, cache_.inode(file)); }

std::int64_t Writepages::blocks_started() const {
  return std::accumulate(started_.begin(), started_.end(), std::int64_t{0});
}

// end_page_writeback for each block of the bio; a block truncated meanwhile is freed.
void Writepages::bio_done(Bio& bio) {
  Inode& in = cache_.inode(bio.file);
  const std::int64_t blocks = bio.bytes / kBlockBytes;
  for (std::int64_t b = bio.first_block; b < bio.first_block + blocks; ++b) {
    const CachedBlock& block = in.blocks[static_cast<std::size_t>(b)];
    cache_.left_device(in, b, true);
    cache_.end_writeback(in, b);
    ++completed_;
    devices_.of(in).block_written();
    if (b >= in.size && !block.has(kDirty)) cache_.release(in, b);  // truncated while being written
    cache_.wake_up_page(in.id, b);
  }
  if (in.nr_writeback == 0 && in.writeback_wait.waiters() > 0) in.writeback_wait.notify_all();
  bios_.put(bio);
}

void Writepages::bio_dispatched(Bio& bio) {
  Inode& in = cache_.inode(bio.file);
  cache_.bio_at_device(in, bio.first_block, bio.bytes / kBlockBytes, true);
  if (in.nr_writeback == in.nr_writeback_at_device && in.writeback_wait.waiters() > 0) in.writeback_wait.notify_all();
}

}  // namespace ckptsim::os
