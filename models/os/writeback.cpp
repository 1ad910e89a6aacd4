// models/os/writeback.cpp
//
// write_pages is write_cache_pages (mm/page-writeback.c): scan the file's
// dirty blocks in ascending order from a start index (cyclic: from
// writeback_index, wrapping once), turn each into a page under writeback,
// and build bios of contiguous blocks, all under the caller's plug.
// WB_SYNC_NONE skips blocks already under writeback; WB_SYNC_ALL waits for
// them, and writes only the blocks dirty when it started (the tag pass: a
// bound on the count and one pass over the range). The flusher that calls it
// for background and kupdate writeback is in bdi_writeback.cpp.
//
// On ext4 it is ext4_da_writepages (3.2): each run of contiguous blocks is
// one extent, mapped (delayed blocks allocated) and submitted under its own
// journal handle when writepages_holds_handle, or only when it allocates;
// a full request pool then keeps the handle open and a commit T_LOCKED.
#include <algorithm>
#include <cmath>

#include "models/os/kernel.h"

namespace ckptsim::os {

sim::Task<std::int64_t> Kernel::write_pages(Inode& in, const WritebackControl& wbc, Plug& plug) {
  BlockDevice& q = bdis_[static_cast<std::size_t>(in.bdi)]->queue();
  const SyncMode mode = wbc.sync_mode;
  const bool cyclic = wbc.range_cyclic;
  const WbReason reason = wbc.reason;
  const int pid = wbc.pid;
  const std::int64_t start = cyclic ? in.writeback_index : wbc.range_start;
  std::int64_t end = cyclic ? in.size : wbc.range_end;
  std::int64_t budget = wbc.nr_to_write;
  OsTask* const task = task_of(pid);
  const bool sync = mode == SyncMode::All;
  // ext4_da_writepages maps and submits each extent under a handle; the
  // commit's own ordered writeback (generic_writepages) takes none and
  // cannot allocate, so it skips delayed blocks.
  const bool da_writepages = journaled(in) && reason != WbReason::Journal;
  Jbd2Journal::Handle handle;
  end = std::min(end, in.size);
  const std::int64_t range_start = cyclic ? 0 : start;
  const std::int64_t range_end = end;
  if (mode == SyncMode::All) {
    // Tag pass: only the blocks dirty now.
    std::int64_t tagged = 0;
    for (std::int64_t b = in.next_dirty(start, end); b < end; b = in.next_dirty(b + 1, end)) ++tagged;
    budget = std::min(budget, tagged);
  }
  std::int64_t written = 0;
  std::int64_t index = start;
  bool wrapped = !cyclic || start <= range_start;
  Bio* bio = nullptr;
  while (written < budget) {
    const std::int64_t b = in.next_dirty(index, end);
    if (b >= end) {
      if (wrapped) break;
      wrapped = true;
      end = start;
      index = range_start;
      continue;
    }
    CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (cb.has(kWriteback)) {
      if (mode == SyncMode::None) {
        index = b + 1;
        continue;
      }
      // WB_SYNC_ALL: submit what we have, then wait for that write.
      if (bio != nullptr) co_await q.submit_bio(*bio, &plug, layers_of(task));
      bio = nullptr;
      handle.stop();
      q.unplug(plug);
      co_await wait_on_block(task, in, b, kWriteback);
      index = b;
      continue;
    }
    const bool delayed = b >= in.allocated;
    if (delayed && !da_writepages) {
      index = b + 1;
      continue;
    }
    const bool joins = extends(bio, b, q);
    if (!joins) {
      if (bio != nullptr) {
        co_await q.submit_bio(*bio, &plug, layers_of(task));
        bio = nullptr;
        handle.stop();
        continue;  // the submission may have slept: look at the block again
      }
      if (da_writepages && !handle && (config_.writepages_holds_handle || delayed)) {
        handle = journal_.try_start_handle();
        if (!handle) {
          q.unplug(plug);  // about to sleep
          co_await journal_.wait_transaction_unlocked(task);
          continue;  // look again: the block may have changed meanwhile
        }
      }
    }
    if (delayed) {
      // mpage_da_map_and_submit: allocation changes size and blocks in this
      // transaction (fdatasync must commit it), and files the inode for ordered data.
      in.allocated = b + 1;
      in.sync_tid = in.datasync_tid = journal_.running_tid();
      journal_.file_inode(in.id);
    }
    cache_.start_writeback(in, b);
    writeback_started(in);
    ++wb_started_[static_cast<std::size_t>(reason)];
    ++written;
    index = b + 1;
    if (joins) {
      bio->bytes += kBlockBytes;
      continue;
    }
    bio = &bios_.get(*this);
    bio->op = disk::Op::Write;
    bio->sync = sync;
    bio->pid = pid;
    bio->file = in.id;
    bio->first_block = b;
    bio->sector = in.sector_of(b);
    bio->bytes = kBlockBytes;
  }
  if (bio != nullptr) co_await q.submit_bio(*bio, &plug, layers_of(task));
  handle.stop();
  if (cyclic) in.writeback_index = index >= range_end ? 0 : index;
  co_return written;
}

}  // namespace ckptsim::os
