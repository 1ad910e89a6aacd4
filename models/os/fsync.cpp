// models/os/fsync.cpp
//
// The data-integrity system calls on ext4 (data=ordered, barrier=1):
//
// fsync / fdatasync (fs/ext4/fsync.c ext4_sync_file): write every dirty
// block of the file as sync-class I/O in ascending order (WB_SYNC_ALL,
// waiting for blocks already under writeback before rewriting them), wait
// until no block of the file is under writeback (including async writes the
// flusher queued earlier), then commit the jbd2 transaction if the inode's
// metadata changed since the last commit (mtime for fsync; size or
// allocation for fdatasync), or else send the device a cache flush.
//
// The commit is kjournald2's (jbd2.cpp); the caller asks for it and
// waits as 3.2's ext4_sync_file does.
//
// sync_file_range(SYNC_FILE_RANGE_WRITE) (fs/sync.c): start writeback of the
// range and return; WB_SYNC_ALL and sync class before 4.4 (it waits for
// blocks of the range already in flight), WB_SYNC_NONE and async after. It
// sleeps when the request pool is full.
//
// posix_fadvise(POSIX_FADV_DONTNEED) (mm/fadvise.c): WB_SYNC_NONE writeback
// of the range unless the device is write-congested, then drop the range's
// clean idle pages.
#include "models/os/kernel.h"

namespace ckptsim::os {

sim::Task<> Kernel::sync_inode(OsTask& task, Inode& in, bool datasync) {
  const sim::Time start = sim_.now();
  co_await writepages_.write_range(in, {.sync_mode = SyncMode::All, .reason = WbReason::Fsync, .pid = task.pid});
  co_await wait_on_writeback(task, in);
  // ext4_sync_file after the data is written: commit the inode's tid, or flush.
  const bool committed = co_await journal_.commit_for_sync(task, datasync ? in.datasync_tid : in.sync_tid);
  if (!committed && config_.barrier) {
    const auto held = in_layer(&task, IoLayer::Device);
    co_await devices_.of(in).queue().flush_cache();
  }
  ++counts_.fsyncs;
  counts_.fsync_time += sim_.now() - start;
  counts_.fsync_max = std::max(counts_.fsync_max, sim_.now() - start);
}

sim::Task<> Kernel::fsync(OsTask& task, FileId file) { co_await sync_inode(task, cache_.inode(file), false); }

sim::Task<> Kernel::fdatasync(OsTask& task, FileId file) { co_await sync_inode(task, cache_.inode(file), true); }

sim::Task<> Kernel::sync_file_range(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = cache_.inode(file);
  ++counts_.sync_file_ranges;
  const SyncMode mode = config_.sync_file_range_mode;
  co_await writepages_.write_range(in, {.sync_mode = mode,
                                        .range_start = block,
                                        .range_end = block + count,
                                        .reason = WbReason::SyncFileRange,
                                        .pid = task.pid});
}

sim::Task<> Kernel::fadvise_dontneed(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = cache_.inode(file);
  if (!devices_.of(in).queue().write_congested()) {
    co_await writepages_.write_range(
        in, {.range_start = block, .range_end = block + count, .reason = WbReason::Fadvise, .pid = task.pid});
  }
  const std::int64_t end = std::min(block + count, in.size);
  for (std::int64_t b = block; b < end; ++b) {
    const CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (cb.has(kCached) && !cb.has(kDirty) && !cb.has(kWriteback) && !cb.has(kLocked)) cache_.release(in, b);
  }
}

}  // namespace ckptsim::os
