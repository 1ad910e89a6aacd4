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
// The jbd2 commit is modelled as one small sync write of
// journal_commit_bytes to the journal at the start of the data device, a
// cache flush, a 4 kB commit block and another flush (libata has no FUA);
// it commits every inode's pending metadata at once, and concurrent callers
// share a commit in progress. Left out: the periodic 5 s commit, journal
// handles blocking write(2) during a commit, ordered-mode data of newly
// allocated blocks, journal checkpointing.
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

sim::Task<> Kernel::journal_commit(OsTask& task) {
  // A commit already running started before our change reached it: wait for
  // it, then commit again if ours is still pending.
  const std::uint64_t needed = running_tid_;
  while (committing_) co_await commit_done_.wait();
  if (committed_tid_ >= needed) co_return;
  committing_ = true;
  const std::uint64_t tid = running_tid_++;
  BlockDevice& q = bdis_[0]->queue();
  if (config_.journal_commit_bytes > 0) {
    // Descriptor + metadata blocks, then flush, then the commit block, then flush.
    const sim::Bytes sizes[2] = {config_.journal_commit_bytes, 4 * sim::kKiB};
    for (const sim::Bytes bytes : sizes) {
      Bio bio;
      bio.op = disk::Op::Write;
      bio.sync = true;
      bio.pid = task.pid;
      bio.owner = &journal_io_;
      bio.sector = (journal_commits_ * 64) % (100 * sim::kMiB / 512);  // wraps inside the journal
      bio.bytes = bytes;
      journal_io_.done.reset();
      co_await q.submit_bio(bio, nullptr);
      co_await journal_io_.done;
      journal_sectors_ += bytes / 512;
      if (config_.barrier) co_await q.flush_cache();
    }
  } else if (config_.barrier) {
    co_await q.flush_cache();
  }
  ++journal_commits_;
  committed_tid_ = tid;
  committing_ = false;
  commit_done_.notify_all();
}

sim::Task<> Kernel::sync_inode(OsTask& task, Inode& in, bool datasync) {
  const sim::Time start = sim_.now();
  Plug plug;
  co_await write_pages(in, {.sync_mode = SyncMode::All, .reason = WbReason::Fsync, .pid = task.pid}, plug);
  bdis_[static_cast<std::size_t>(in.bdi)]->queue().unplug(plug);
  while (in.nr_writeback > 0) {
    const auto held = in_layer(&task, writeback_layer(in));
    co_await in.writeback_wait.wait();
  }
  const std::uint64_t changed = datasync ? in.datasync_tid : in.sync_tid;
  if (changed > committed_tid_ && config_.journal_commit_bytes > 0) {
    const auto held = in_layer(&task, IoLayer::Journal);
    co_await journal_commit(task);
  } else if (config_.barrier) {
    const auto held = in_layer(&task, IoLayer::Device);
    co_await bdis_[static_cast<std::size_t>(in.bdi)]->queue().flush_cache();
  }
  ++fsyncs_;
  fsync_time_ += sim_.now() - start;
  fsync_max_ = std::max(fsync_max_, sim_.now() - start);
}

sim::Task<> Kernel::fsync(OsTask& task, FileId file) { co_await sync_inode(task, inode(file), false); }

sim::Task<> Kernel::fdatasync(OsTask& task, FileId file) { co_await sync_inode(task, inode(file), true); }

sim::Task<> Kernel::sync_file_range(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = inode(file);
  ++sync_file_ranges_;
  const SyncMode mode = config_.sync_file_range_mode;
  Plug plug;
  co_await write_pages(in,
                       {.sync_mode = mode,
                        .range_start = block,
                        .range_end = block + count,
                        .reason = WbReason::SyncFileRange,
                        .pid = task.pid},
                       plug);
  bdis_[static_cast<std::size_t>(in.bdi)]->queue().unplug(plug);
}

sim::Task<> Kernel::fadvise_dontneed(OsTask& task, FileId file, std::int64_t block, std::int64_t count) {
  Inode& in = inode(file);
  BlockDevice& q = bdis_[static_cast<std::size_t>(in.bdi)]->queue();
  if (!q.write_congested()) {
    Plug plug;
    co_await write_pages(
        in, {.range_start = block, .range_end = block + count, .reason = WbReason::Fadvise, .pid = task.pid}, plug);
    q.unplug(plug);
  }
  const std::int64_t end = std::min(block + count, in.size);
  for (std::int64_t b = block; b < end; ++b) {
    const CachedBlock& cb = in.blocks[static_cast<std::size_t>(b)];
    if (cb.has(kCached) && !cb.has(kDirty) && !cb.has(kWriteback) && !cb.has(kLocked)) cache_.release(in, b);
  }
}

}  // namespace ckptsim::os
