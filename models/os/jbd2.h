// models/os/jbd2.h
//
// ext4's journal as Linux 3.2 runs it (fs/jbd2/transaction.c
// start_this_handle, jbd2_journal_stop; fs/jbd2/commit.c
// jbd2_journal_commit_transaction; fs/jbd2/journal.c kjournald2,
// __jbd2_log_start_commit, jbd2_log_wait_commit), seen from the tasks that
// meet it. Jbd2Journal owns all of it; the kernel holds handles and asks for
// commits.
//
// - One running transaction, created by the first handle after the last
//   commit locked its predecessor; kjournald2 commits it when asked
//   (j_commit_request) or commit_interval after it started (t_expires).
// - A handle is what a metadata change holds: write(2)'s mtime update and
//   ext4_da_write_begin's page grab, ext4_da_writepages around each extent it
//   maps and submits. While a commit is T_LOCKED, a new handle waits
//   (j_wait_transaction_locked), and the commit waits for the handles already
//   open (t_updates, j_wait_updates). A handle held across a sleep (a stable
//   page, a full request pool) therefore stops every writer.
// - Ordered data (data=ordered): writeback that allocates a delayed block
//   files its inode on the running transaction (ext4_jbd2_file_inode); the
//   commit writes that inode's dirty allocated pages and waits for all its
//   writeback (journal_submit_data_buffers, journal_finish_inode_data_buffers),
//   through the page cache's OrderedDataWriter.
// - fsync / fdatasync (ext4_sync_file): commit the inode's i_sync_tid /
//   i_datasync_tid. On 3.2, __jbd2_log_start_commit returns 0 for a tid whose
//   commit is already requested and ext4_sync_file then does not wait for it;
//   3.9's jbd2_complete_transaction waits (fsync_waits_committing).
//
// A commit (jbd2_journal_commit_transaction) here: T_LOCKED until the open
// handles are stopped; then the next transaction may start; ordered data;
// then journal_commit_bytes of descriptor and metadata blocks, a cache
// flush, a 4 kB commit block and another flush (libata has no FUA), the
// flushes only with barrier=1. The journal's blocks are written at the start
// of the data device, wrapping inside it.
//
// Left out: journal space (checkpointing, j_free), handle credits, the
// commit's own metadata buffers beyond journal_commit_bytes, async commit.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "models/os/bio.h"
#include "models/os/block_device.h"
#include "models/os/file_system.h"
#include "models/os/os_config.h"
#include "sim/process.h"
#include "sim/sync.h"
#include "sim/timer.h"

namespace ckptsim::os {

// What a commit needs of the page cache for data=ordered: the filed inodes'
// pages written (journal_submit_data_buffers), then waited for
// (journal_finish_inode_data_buffers), as kjournald2's own I/O.
class OrderedDataWriter {
 public:
  // WB_SYNC_ALL writeback of the file's allocated dirty pages, without a handle.
  virtual sim::Task<> submit_data(OsTask& task, FileId file) = 0;
  // Until none of the file's pages is under writeback.
  virtual sim::Task<> wait_data(OsTask& task, FileId file) = 0;

 protected:
  ~OrderedDataWriter() = default;
};

// The journal's figures of a run.
struct JournalReport {
  std::int64_t commits = 0;
  std::int64_t sectors = 0;       // written by commits (not page-cache pages)
  std::int64_t handle_waits = 0;  // handles that waited for a T_LOCKED commit
  sim::Duration locked_time = 0;  // sum of the T_LOCKED phases
  sim::Duration locked_max = 0;
};

class Jbd2Journal {
 public:
  // An open handle of the running transaction (t_updates); stopped at scope
  // exit or at stop(). Like sim::LWLock::Guard, a handle destroyed while the
  // Simulator tears down suspended processes leaves the journal alone.
  class [[nodiscard]] Handle {
   public:
    Handle() noexcept = default;
    Handle(Handle&& other) noexcept : sim_(other.sim_), journal_(std::exchange(other.journal_, nullptr)) {}
    Handle& operator=(Handle&& other) noexcept {
      if (this != &other) {
        stop();
        sim_ = other.sim_;
        journal_ = std::exchange(other.journal_, nullptr);
      }
      return *this;
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
      if (journal_ != nullptr && !sim_->tearing_down()) stop();
    }

    explicit operator bool() const noexcept { return journal_ != nullptr; }
    // jbd2_journal_stop.
    void stop() {
      if (journal_ != nullptr) std::exchange(journal_, nullptr)->handle_stopped();
    }

   private:
    friend class Jbd2Journal;
    explicit Handle(Jbd2Journal& journal) noexcept : sim_(&journal.sim_), journal_(&journal) {}
    const sim::Simulator* sim_ = nullptr;
    Jbd2Journal* journal_ = nullptr;
  };

  Jbd2Journal(sim::Simulator& sim, const OsConfig& config, OrderedDataWriter& writer);

  // A journal that writes (journal_commit_bytes > 0); without one, handles
  // never wait and fsync only flushes.
  bool enabled() const noexcept { return config_.journal_commit_bytes > 0; }
  // Spawns kjournald2 as `task`, committing to `device`.
  void start(OsTask& task, BlockDevice& device);

  // start_this_handle: waits while a commit is T_LOCKED (in `task`'s journal layer).
  sim::Task<Handle> start_handle(OsTask* task);
  // The same without waiting: an empty handle while T_LOCKED.
  Handle try_start_handle();
  // start_this_handle's wait alone, for a caller that must let go of other things first.
  sim::Task<> wait_transaction_unlocked(OsTask* task);

  // The tid that a metadata change made now belongs to.
  std::uint64_t running_tid() const noexcept { return running_tid_; }
  // ext4_jbd2_file_inode: the running transaction's commit writes this file's data first (data=ordered).
  void file_inode(FileId file);
  // ext4_sync_file's journal part for a change in `tid`: true when a commit
  // covers it now (asked for or, on 3.9, already running) and was waited for;
  // false when the caller flushes the device itself.
  sim::Task<bool> commit_for_sync(OsTask& task, std::uint64_t tid);

  JournalReport report() const noexcept { return stats_; }

 private:
  // A small synchronous write of the journal, with its own completion.
  struct JournalIo final : BioOwner {
    explicit JournalIo(sim::Simulator& sim) : done(sim) {}
    void bio_done(Bio&) override { done.set(); }
    sim::Event done;
  };

  void handle_started();
  void handle_stopped();
  bool start_commit(std::uint64_t tid);
  void commit_timer_fired();
  sim::Process kjournald2();
  sim::Task<> commit_transaction();
  sim::Task<> write_ordered_data();
  sim::Task<> write_commit_blocks();

  sim::Simulator& sim_;
  const OsConfig& config_;
  OrderedDataWriter& writer_;
  OsTask* task_ = nullptr;         // kjournald2
  BlockDevice* device_ = nullptr;  // the data device, where the journal lives

  std::uint64_t running_tid_ = 1;  // tid of the running transaction (next to be created, if none is)
  bool running_ = false;           // a handle started it: t_start is valid
  sim::Time t_start_ = 0;
  std::uint64_t commit_request_ = 0;        // j_commit_request
  std::uint64_t commit_sequence_ = 0;       // j_commit_sequence: the newest committed tid
  bool locked_ = false;                     // the committing transaction is T_LOCKED
  int updates_ = 0;                         // t_updates: open handles of the running transaction
  std::vector<FileId> ordered_;             // t_inode_list of the running transaction
  std::vector<std::uint64_t> ordered_tid_;  // per file: the transaction it is filed on (jinode->i_transaction), 0: none
  sim::Condition locked_wait_;              // j_wait_transaction_locked
  sim::Condition updates_wait_;             // j_wait_updates
  sim::Condition commit_wait_;              // j_wait_commit: kjournald2 sleeps here
  sim::Condition done_wait_;                // j_wait_done_commit
  sim::Timer commit_timer_;
  JournalIo io_;
  JournalReport stats_;
};

}  // namespace ckptsim::os
