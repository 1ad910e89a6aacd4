// models/os/jbd2.cpp
//
// The jbd2 journal of the data volume (jbd2.h says what is modelled):
// handles, kjournald2 and its commit, and ext4_sync_file's commit rule.
#include "models/os/jbd2.h"

#include <algorithm>

namespace ckptsim::os {

Jbd2Journal::Jbd2Journal(sim::Simulator& sim, const OsConfig& config, OrderedDataWriter& writer)
    : sim_(sim),
      config_(config),
      writer_(writer),
      locked_wait_(sim),
      updates_wait_(sim),
      commit_wait_(sim),
      done_wait_(sim),
      commit_timer_(sim, [this] { commit_timer_fired(); }),
      io_(sim) {}

void Jbd2Journal::start(OsTask& task, BlockDevice& device) {
  task_ = &task;
  device_ = &device;
  sim_.spawn(kjournald2());
}

// start_this_handle's wait: the running transaction is being locked for a commit.
sim::Task<> Jbd2Journal::wait_transaction_unlocked(OsTask* task) {
  ++stats_.handle_waits;
  const auto held = in_layer(task, IoLayer::Journal);
  while (locked_) co_await locked_wait_.wait();
}

sim::Task<Jbd2Journal::Handle> Jbd2Journal::start_handle(OsTask* task) {
  if (locked_) co_await wait_transaction_unlocked(task);
  handle_started();
  co_return Handle(*this);
}

Jbd2Journal::Handle Jbd2Journal::try_start_handle() {
  if (locked_) return {};
  handle_started();
  return Handle(*this);
}

void Jbd2Journal::handle_started() {
  ++updates_;
  if (running_) return;
  running_ = true;  // the first handle creates the transaction
  t_start_ = sim_.now();
  if (config_.commit_interval > 0) commit_timer_.schedule_at(t_start_ + config_.commit_interval);
}

void Jbd2Journal::handle_stopped() {
  if (--updates_ == 0 && locked_) updates_wait_.notify_all();
}

void Jbd2Journal::file_inode(FileId file) {
  if (!config_.ordered_data) return;
  const auto i = static_cast<std::size_t>(file);
  if (ordered_tid_.size() <= i) ordered_tid_.resize(i + 1, 0);
  if (ordered_tid_[i] == running_tid_) return;
  ordered_tid_[i] = running_tid_;
  ordered_.push_back(file);
}

// __jbd2_log_start_commit: true when this call asked for the commit.
bool Jbd2Journal::start_commit(std::uint64_t tid) {
  if (commit_request_ >= tid) return false;
  commit_request_ = tid;
  commit_wait_.notify_all();
  return true;
}

// commit_timeout: the running transaction has reached t_expires.
void Jbd2Journal::commit_timer_fired() {
  if (running_ && sim_.now() >= t_start_ + config_.commit_interval) start_commit(running_tid_);
}

sim::Process Jbd2Journal::kjournald2() {
  for (;;) {
    while (commit_request_ <= commit_sequence_) co_await commit_wait_.wait();
    co_await commit_transaction();
  }
}

sim::Task<> Jbd2Journal::commit_transaction() {
  const std::uint64_t tid = running_tid_;
  // T_LOCKED: no new handle; wait for the open ones.
  const sim::Time locked_at = sim_.now();
  locked_ = true;
  {
    const auto held = in_layer(task_, IoLayer::Journal);
    while (updates_ > 0) co_await updates_wait_.wait();
  }
  locked_ = false;
  const sim::Duration locked_for = sim_.now() - locked_at;
  stats_.locked_time += locked_for;
  stats_.locked_max = std::max(stats_.locked_max, locked_for);
  commit_timer_.cancel();
  co_await write_ordered_data();  // T_FLUSH
  co_await write_commit_blocks();
  ++stats_.commits;
  commit_sequence_ = tid;
  done_wait_.notify_all();
}

// The transaction closes (the next may start) and its filed inodes' data is
// written: all submitted first, then all waited for.
sim::Task<> Jbd2Journal::write_ordered_data() {
  std::vector<FileId> ordered;
  ordered.swap(ordered_);
  running_ = false;
  ++running_tid_;
  locked_wait_.notify_all();
  for (const FileId file : ordered) co_await writer_.submit_data(*task_, file);
  for (const FileId file : ordered) {
    co_await writer_.wait_data(*task_, file);
    ordered_tid_[static_cast<std::size_t>(file)] = 0;
  }
}

// Descriptor + metadata blocks, then the commit block, each followed by a flush.
sim::Task<> Jbd2Journal::write_commit_blocks() {
  BlockDevice& q = *device_;
  if (config_.journal_commit_bytes <= 0) {
    if (config_.barrier) co_await q.meta_flush_cache();
    co_return;
  }
  const auto held = in_layer(task_, IoLayer::Device);
  const sim::Bytes sizes[2] = {config_.journal_commit_bytes, 4 * sim::kKiB};
  for (const sim::Bytes bytes : sizes) {
    Bio bio;
    bio.op = disk::Op::Write;
    bio.sync = true;
    bio.pid = task_->pid;
    bio.owner = &io_;
    bio.sector = (stats_.commits * 64) % (100 * sim::kMiB / 512);  // wraps inside the journal
    bio.bytes = bytes;
    // JBD2_JOURNAL_REQ_FLAGS: REQ_META | REQ_SYNC; one submit_bh per 4 kB journal block.
    bio.meta = true;
    bio.nr_bios = static_cast<std::int32_t>(std::max<sim::Bytes>(1, bytes / (4 * sim::kKiB)));
    io_.done.reset();
    co_await q.submit_bio(bio, nullptr, &task_->io_layers);
    co_await io_.done;
    stats_.sectors += bytes / 512;
    // The commit record's PREFLUSH | FUA: part of that REQ_META bio.
    if (config_.barrier) co_await q.meta_flush_cache();
  }
}

sim::Task<bool> Jbd2Journal::commit_for_sync(OsTask& task, std::uint64_t tid) {
  if (tid <= commit_sequence_ || !enabled()) co_return false;
  const bool asked = start_commit(tid);
  if (!asked && !config_.fsync_waits_committing) co_return false;
  const auto held = in_layer(&task, IoLayer::Journal);  // jbd2_log_wait_commit
  while (commit_sequence_ < tid) co_await done_wait_.wait();
  co_return true;
}

}  // namespace ckptsim::os
