// models/os/writeback.cpp
//
// Dirty-page writeback (fs/fs-writeback.c, mm/page-writeback.c):
//
// write_pages is write_cache_pages: scan the file's dirty blocks in
// ascending order from a start index (cyclic: from writeback_index,
// wrapping once), turn each into a page under writeback, and build bios of
// contiguous blocks, all under the caller's plug. WB_SYNC_NONE skips blocks
// already under writeback; WB_SYNC_ALL waits for them, and writes only the
// blocks dirty when it started (the tag pass: a bound on the count and one
// pass over the range).
//
// The flusher is bdi_writeback_thread / wb_writeback: queued work first,
// then kupdate every dirty_writeback_centisecs (inodes whose dirtied_when is
// older than dirty_expire_centisecs), then background writeback while Dirty
// is above the background threshold. Inodes move b_dirty -> b_io (expired
// ones, oldest first) -> written a chunk at a time -> b_more_io (chunk used
// up, still dirty) or back to b_dirty (could not progress) or off the lists
// (clean). Expiry is per inode: a file that stays dirty keeps its old
// dirtied_when, so kupdate writes it at every pass.
//
// Left out: s_max_writeback_mb_bump, sync(2) work, the per-bdi share of the
// background threshold (the global Dirty is compared), waiting on I_SYNC of
// b_more_io inodes (the pass ends instead).
#include <algorithm>
#include <cmath>

#include "models/os/kernel.h"

namespace ckptsim::os {

namespace {
constexpr std::int64_t kMinWritebackBlocks = 4 * sim::kMiB / kBlockBytes;  // MIN_WRITEBACK_PAGES
constexpr sim::Duration kBandwidthInterval = 200 * sim::kMillisecond;     // BANDWIDTH_INTERVAL
constexpr sim::Duration kBandwidthWindow = 3 * sim::kSecond;
}  // namespace

sim::Task<std::int64_t> Kernel::write_pages(Inode& in, const WritebackControl& wbc, Plug& plug) {
  BlockQueue& q = *bdis_[static_cast<std::size_t>(in.bdi)]->queue;
  const SyncMode mode = wbc.sync_mode;
  const bool cyclic = wbc.range_cyclic;
  const WbReason reason = wbc.reason;
  const int pid = wbc.pid;
  const std::int64_t start = cyclic ? in.writeback_index : wbc.range_start;
  std::int64_t end = cyclic ? in.size : wbc.range_end;
  std::int64_t budget = wbc.nr_to_write;
  OsTask* const task = task_of(pid);
  const bool sync = mode == SyncMode::All;
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
      q.unplug(plug);
      co_await wait_on_block(task, in, b, kWriteback);
      index = b;
      continue;
    }
    cache_.start_writeback(in, b);
    writeback_started(in);
    ++wb_started_[static_cast<std::size_t>(reason)];
    ++written;
    index = b + 1;
    if (extends(bio, b, q)) {
      bio->bytes += kBlockBytes;
      continue;
    }
    if (bio != nullptr) co_await q.submit_bio(*bio, &plug, layers_of(task));
    bio = &get_bio();
    bio->op = disk::Op::Write;
    bio->sync = sync;
    bio->pid = pid;
    bio->file = in.id;
    bio->first_block = b;
    bio->sector = in.sector_of(b);
    bio->bytes = kBlockBytes;
  }
  if (bio != nullptr) co_await q.submit_bio(*bio, &plug, layers_of(task));
  if (cyclic) in.writeback_index = index >= range_end ? 0 : index;
  co_return written;
}

// ---- inode lists ----

void Kernel::list_move(Bdi& bdi, Inode& in, WbList to) {
  switch (in.list) {
    case WbList::Dirty: bdi.b_dirty.erase(bdi.b_dirty.iterator_to(in)); break;
    case WbList::Io: bdi.b_io.erase(bdi.b_io.iterator_to(in)); break;
    case WbList::MoreIo: bdi.b_more_io.erase(bdi.b_more_io.iterator_to(in)); break;
    case WbList::None: break;
  }
  in.list = to;
  switch (to) {
    case WbList::Dirty: bdi.b_dirty.push_back(in); break;
    case WbList::Io: bdi.b_io.push_back(in); break;
    case WbList::MoreIo: bdi.b_more_io.push_back(in); break;
    case WbList::None: break;
  }
}

// queue_io: b_more_io first, then the expired part of b_dirty, oldest first.
void Kernel::queue_io(Bdi& bdi, sim::Time older_than) {
  while (!bdi.b_more_io.empty()) list_move(bdi, bdi.b_more_io.front(), WbList::Io);
  while (!bdi.b_dirty.empty() && bdi.b_dirty.front().dirtied_when <= older_than) {
    list_move(bdi, bdi.b_dirty.front(), WbList::Io);
  }
}

void Kernel::requeue_inode(Bdi& bdi, Inode& in, std::int64_t written, std::int64_t chunk) {
  if (in.nr_dirty == 0) {
    in.dirty = false;
    in.dirtied_when = 0;
    list_move(bdi, in, WbList::None);
    return;
  }
  in.dirty = true;
  if (written >= chunk) {
    list_move(bdi, in, WbList::MoreIo);  // keeps dirtied_when
    return;
  }
  // Could not make progress (its pages are under writeback): to the newest
  // end of b_dirty, no older than the newest entry there.
  if (!bdi.b_dirty.empty() && in.dirtied_when < bdi.b_dirty.back().dirtied_when) in.dirtied_when = sim_.now();
  if (in.dirtied_when == 0) in.dirtied_when = sim_.now();
  list_move(bdi, in, WbList::Dirty);
}

// writeback_chunk_size: >= 4 MiB, scaled to half a second of bandwidth and
// an eighth of the dirty limit (3.1+); a fixed 4 MiB before.
std::int64_t Kernel::writeback_chunk(const Bdi& bdi, std::int64_t nr_left) const {
  if (config_.writeback_chunk == WritebackChunk::Fixed) return kMinWritebackBlocks;
  const auto limit_blocks = static_cast<std::int64_t>(bdi.dirty_limit) / kPagesPerBlock;
  std::int64_t chunk = std::min({static_cast<std::int64_t>(bdi.write_bw / 2), limit_blocks / 8, nr_left});
  chunk = (chunk + kMinWritebackBlocks) / kMinWritebackBlocks * kMinWritebackBlocks;
  return std::max(chunk, kMinWritebackBlocks);
}

bool Kernel::over_bground_thresh() const {
  return cache_.dirty() * kPagesPerBlock > dirty_limits().background;
}

void Kernel::wake_background(Bdi& bdi) {
  bdi.background_wanted = true;
  bdi.wake();
}

// bdi_update_write_bandwidth: blocks completed per second, blended over 3 s.
void Kernel::update_bandwidth(Bdi& bdi) {
  const sim::Time now = sim_.now();
  const sim::Duration elapsed = now - bdi.bw_time_stamp;
  if (elapsed < kBandwidthInterval) return;
  const double observed = static_cast<double>(bdi.written - bdi.bw_written_stamp) / sim::to_seconds(elapsed);
  if (elapsed >= kBandwidthWindow) {
    bdi.write_bw = observed;
  } else {
    bdi.write_bw = (observed * static_cast<double>(elapsed) +
                    bdi.write_bw * static_cast<double>(kBandwidthWindow - elapsed)) /
                   static_cast<double>(kBandwidthWindow);
  }
  bdi.write_bw = std::max(bdi.write_bw, 1.0);
  bdi.bw_written_stamp = bdi.written;
  bdi.bw_time_stamp = now;
}

// writeback_sb_inodes over b_io: one chunk per inode, re-checking every 100 ms.
sim::Task<std::int64_t> Kernel::writeback_inodes(Bdi& bdi, std::int64_t nr, sim::Time older_than, WbReason reason,
                                                 int pid) {
  if (bdi.b_io.empty()) queue_io(bdi, older_than);
  std::int64_t progress = 0;
  const sim::Time t0 = sim_.now();
  while (!bdi.b_io.empty() && nr > 0) {
    Inode& in = bdi.b_io.front();
    if (in.i_sync) {
      list_move(bdi, in, WbList::MoreIo);
      continue;
    }
    list_move(bdi, in, WbList::None);
    const std::int64_t chunk = std::min(writeback_chunk(bdi, nr), nr);
    in.i_sync = true;
    in.dirty = false;  // I_DIRTY_PAGES cleared for the pass; set again if pages stay dirty
    Plug plug;
    const std::int64_t n =
        co_await write_pages(in, {.nr_to_write = chunk, .range_cyclic = true, .reason = reason, .pid = pid}, plug);
    bdi.queue->unplug(plug);
    in.i_sync = false;
    nr -= n;
    progress += n;
    requeue_inode(bdi, in, n, chunk);
    update_bandwidth(bdi);
    if (progress > 0 && sim_.now() - t0 >= 100 * sim::kMillisecond) break;
  }
  co_return progress;
}

sim::Task<std::int64_t> Kernel::wb_writeback(Bdi& bdi, WbWork work) {
  const sim::Time started = sim_.now();
  std::int64_t total = 0;
  bdi.busy = true;
  for (;;) {
    if (work.nr_pages <= 0) break;
    const bool periodic = work.reason == WbReason::Kupdate || work.reason == WbReason::Background;
    if (periodic && !bdi.work_list.empty()) break;  // explicit work goes first
    if (work.reason == WbReason::Background && !over_bground_thresh()) break;
    const sim::Time older_than =
        work.reason == WbReason::Kupdate ? sim_.now() - config_.dirty_expire_centisecs * 10 * sim::kMillisecond
        : work.reason == WbReason::Background ? sim_.now()
                                              : started;
    const std::int64_t progress = co_await writeback_inodes(bdi, work.nr_pages, older_than, work.reason, 0);
    work.nr_pages -= progress;
    total += progress;
    update_bandwidth(bdi);
    if (progress > 0) continue;
    if (bdi.b_more_io.empty()) break;
    // Every inode left is being written by someone else: let them finish.
    co_await sim_.sleep(10 * sim::kMillisecond);
  }
  bdi.busy = false;
  co_return total;
}

sim::Process Kernel::flusher(Bdi& bdi) {
  const sim::Duration interval = config_.dirty_writeback_centisecs * 10 * sim::kMillisecond;
  for (;;) {
    while (!bdi.work_list.empty()) {
      const WbWork work = bdi.work_list.front();
      bdi.work_list.pop_front();
      co_await wb_writeback(bdi, work);
    }
    // wb_check_old_data_flush
    if (interval > 0 && sim_.now() - bdi.last_old_flush >= interval) {
      bdi.last_old_flush = sim_.now();
      const auto inodes = static_cast<std::int64_t>(bdi.b_dirty.size() + bdi.b_io.size() + bdi.b_more_io.size());
      if (inodes > 0) co_await wb_writeback(bdi, WbWork{cache_.dirty() + inodes, WbReason::Kupdate});
    }
    // wb_check_background_flush
    if (bdi.background_wanted || over_bground_thresh()) {
      bdi.background_wanted = false;
      if (over_bground_thresh() &&
          co_await wb_writeback(bdi, WbWork{INT64_MAX / 4, WbReason::Background}) == 0) {
        // Everything dirty is already under writeback: wait for completions (congestion_wait).
        co_await FlusherSleep{bdi, sim_.now() + 100 * sim::kMillisecond};
        continue;
      }
    }
    if (!bdi.work_list.empty() || bdi.background_wanted) continue;
    const bool has_dirty = !bdi.b_dirty.empty() || !bdi.b_io.empty() || !bdi.b_more_io.empty();
    co_await FlusherSleep{bdi, has_dirty && interval > 0 ? bdi.last_old_flush + interval : -1};
  }
}

}  // namespace ckptsim::os
