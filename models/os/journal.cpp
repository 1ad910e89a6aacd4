// models/os/journal.cpp
//
// The jbd2 journal of the data volume (jbd2.h says what is modelled):
// handles, kjournald2 and its commit, and ext4_sync_file's commit rule.
//
// A commit (jbd2_journal_commit_transaction) here: T_LOCKED until the open
// handles are stopped; then the next transaction may start; ordered data
// (WB_SYNC_ALL writeback of the filed inodes' allocated dirty pages, as
// generic_writepages does without a handle, then a wait for all their
// writeback); then journal_commit_bytes of descriptor and metadata blocks,
// a cache flush, a 4 kB commit block and another flush (libata has no FUA),
// the flushes only with barrier=1. The journal's blocks are written at the
// start of the data device, wrapping inside it.
#include "models/os/kernel.h"

namespace ckptsim::os {

// start_this_handle's wait: the running transaction is being locked for a commit.
sim::Task<> Kernel::wait_transaction_unlocked(OsTask* task) {
  ++jbd_.handle_waits;
  const auto held = in_layer(task, IoLayer::Journal);
  while (jbd_.locked) co_await jbd_.locked_wait.wait();
}

void Kernel::handle_started() {
  ++jbd_.updates;
  if (jbd_.running) return;
  jbd_.running = true;  // the first handle creates the transaction
  jbd_.t_start = sim_.now();
  if (config_.commit_interval > 0) commit_timer_.schedule_at(jbd_.t_start + config_.commit_interval);
}

void Kernel::handle_stopped() {
  if (--jbd_.updates == 0 && jbd_.locked) jbd_.updates_wait.notify_all();
}

// __jbd2_log_start_commit: true when this call asked for the commit.
bool Kernel::start_commit(std::uint64_t tid) {
  if (jbd_.commit_request >= tid) return false;
  jbd_.commit_request = tid;
  jbd_.commit_wait.notify_all();
  return true;
}

sim::Task<> Kernel::wait_commit(OsTask& task, std::uint64_t tid) {
  const auto held = in_layer(&task, IoLayer::Journal);
  while (jbd_.commit_sequence < tid) co_await jbd_.done_wait.wait();
}

// commit_timeout: the running transaction has reached t_expires.
void Kernel::commit_timer_fired() {
  if (jbd_.running && sim_.now() >= jbd_.t_start + config_.commit_interval) start_commit(jbd_.running_tid);
}

sim::Process Kernel::kjournald2() {
  for (;;) {
    while (jbd_.commit_request <= jbd_.commit_sequence) co_await jbd_.commit_wait.wait();
    co_await commit_transaction();
  }
}

sim::Task<> Kernel::commit_transaction() {
  OsTask& task = *journal_task_;
  const std::uint64_t tid = jbd_.running_tid;
  // T_LOCKED: no new handle; wait for the open ones.
  const sim::Time locked_at = sim_.now();
  jbd_.locked = true;
  {
    const auto held = in_layer(&task, IoLayer::Journal);
    while (jbd_.updates > 0) co_await jbd_.updates_wait.wait();
  }
  jbd_.locked = false;
  const sim::Duration locked_for = sim_.now() - locked_at;
  jbd_.locked_time += locked_for;
  jbd_.locked_max = std::max(jbd_.locked_max, locked_for);
  commit_timer_.cancel();
  std::vector<FileId> ordered;
  ordered.swap(jbd_.ordered);
  jbd_.running = false;
  ++jbd_.running_tid;
  jbd_.locked_wait.notify_all();

  // T_FLUSH: ordered data.
  BlockDevice& q = bdis_[0]->queue();
  for (const FileId file : ordered) {
    Inode& in = inode(file);
    Plug plug;
    co_await write_pages(in, {.sync_mode = SyncMode::All, .reason = WbReason::Journal, .pid = task.pid}, plug);
    bdis_[static_cast<std::size_t>(in.bdi)]->queue().unplug(plug);
  }
  for (const FileId file : ordered) {
    Inode& in = inode(file);
    while (in.nr_writeback > 0) {
      const auto held = in_layer(&task, writeback_layer(in));
      co_await in.writeback_wait.wait();
    }
    in.ordered_tid = 0;
  }

  // The journal blocks: descriptor + metadata, then the commit block.
  if (config_.journal_commit_bytes > 0) {
    const auto held = in_layer(&task, IoLayer::Device);
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
      co_await q.submit_bio(bio, nullptr, &task.io_layers);
      co_await journal_io_.done;
      journal_sectors_ += bytes / 512;
      if (config_.barrier) co_await q.flush_cache();
    }
  } else if (config_.barrier) {
    co_await q.flush_cache();
  }
  ++journal_commits_;
  jbd_.commit_sequence = tid;
  jbd_.done_wait.notify_all();
}

// ext4_sync_file after the data is written: commit the inode's tid, or flush.
sim::Task<> Kernel::commit_for_sync(OsTask& task, Inode& in, bool datasync) {
  const std::uint64_t tid = datasync ? in.datasync_tid : in.sync_tid;
  if (tid > jbd_.commit_sequence && config_.journal_commit_bytes > 0) {
    const bool asked = start_commit(tid);
    if (asked || config_.fsync_waits_committing) {
      co_await wait_commit(task, tid);
      co_return;
    }
  }
  if (config_.barrier) {
    const auto held = in_layer(&task, IoLayer::Device);
    co_await bdis_[static_cast<std::size_t>(in.bdi)]->queue().flush_cache();
  }
}

}  // namespace ckptsim::os
