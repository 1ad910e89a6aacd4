// models/os/jbd2.h
//
// ext4's journal as Linux 3.2 runs it (fs/jbd2/transaction.c
// start_this_handle, jbd2_journal_stop; fs/jbd2/commit.c
// jbd2_journal_commit_transaction; fs/jbd2/journal.c kjournald2,
// __jbd2_log_start_commit, jbd2_log_wait_commit), seen from the tasks that
// meet it. The state lives here; the kernel's journal.cpp runs it.
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
//   writeback (journal_submit_data_buffers, journal_finish_inode_data_buffers).
// - fsync / fdatasync (ext4_sync_file): commit the inode's i_sync_tid /
//   i_datasync_tid. On 3.2, __jbd2_log_start_commit returns 0 for a tid whose
//   commit is already requested and ext4_sync_file then does not wait for it;
//   3.9's jbd2_complete_transaction waits (fsync_waits_committing).
//
// Left out: journal space (checkpointing, j_free), handle credits, the
// commit's own metadata buffers beyond journal_commit_bytes, async commit.
#pragma once

#include <cstdint>
#include <vector>

#include "models/os/file_system.h"
#include "sim/sync.h"
#include "sim/timer.h"

namespace ckptsim::os {

struct Jbd2State {
  explicit Jbd2State(sim::Simulator& sim) : locked_wait(sim), updates_wait(sim), commit_wait(sim), done_wait(sim) {}

  std::uint64_t running_tid = 1;      // tid of the running transaction (next to be created, if none is)
  bool running = false;               // a handle started it: t_start is valid
  sim::Time t_start = 0;
  std::uint64_t commit_request = 0;   // j_commit_request
  std::uint64_t commit_sequence = 0;  // j_commit_sequence: the newest committed tid
  bool locked = false;                // the committing transaction is T_LOCKED
  int updates = 0;                    // t_updates: open handles of the running transaction
  std::vector<FileId> ordered;        // t_inode_list of the running transaction
  sim::Condition locked_wait;         // j_wait_transaction_locked
  sim::Condition updates_wait;        // j_wait_updates
  sim::Condition commit_wait;         // j_wait_commit: kjournald2 sleeps here
  sim::Condition done_wait;           // j_wait_done_commit
  std::int64_t handle_waits = 0;      // handles that waited for a T_LOCKED commit
  sim::Duration locked_time = 0;      // sum of the T_LOCKED phases
  sim::Duration locked_max = 0;
};

}  // namespace ckptsim::os
