// models/postgres/wal.h
//
// The write-ahead log: xlog.c / xloginsert.c.
//
// Insertion reserves space at the insert position (records 8-byte aligned,
// a 24-byte header at every 8 kB WAL page, 40 at a segment's first page) and
// decides there, against the current redo pointer, whether the record
// carries a full-page image: the first change of a page whose LSN is at or
// before RedoRecPtr does, when full_page_writes is on (8100 bytes for a
// pgbench page with its hole removed; a third of that with wal_compression).
// When the ring of wal_buffers would be overrun, the inserter writes the
// oldest WAL itself (wal_buffers_full).
//
// XLogFlush(target) is group commit: the first process to get WALWriteLock
// writes and fdatasyncs everything inserted so far; those that waited for the
// lock return if that covered them (LWLockAcquireOrWait, 9.2+; earlier
// releases queue on the lock, which costs the same here). With commit_delay
// the leader (9.3+) or every committer (9.2-) sleeps first, if at least
// commit_siblings other transactions are open.
//
// XLogWrite writes whole WAL pages (the partial last page again next time)
// into 16 MB segment files on the Wal volume, fdatasyncs (or fsyncs, by
// wal_sync_method; nothing with fsync off) each segment as it is finished and
// reports it (the WAL-volume checkpoint trigger). A segment
// without a file is created and zero-filled by whoever enters it
// (XLogFileInit). At checkpoint end, old segments are recycled into future
// names up to the version's target or removed.
//
// Left out: WAL insertion locks (insertion is instantaneous), the
// archiver, timelines, XLOG_SWITCH, wal_level differences in record size.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/os/file_system.h"
#include "models/postgres/buffer_pool.h"
#include "models/postgres/latch.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/stats.h"
#include "models/postgres/version.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

inline constexpr sim::Bytes kWalSegmentBytes = 16 * sim::kMiB;
inline constexpr sim::Bytes kWalPageBytes = 8192;
inline constexpr int kFullPageImageBytes = 8100;  // 8192 - hole (~116 B on a full pgbench page) + image header

class Wal {
 public:
  Wal(sim::Simulator& sim, os::FileSystem& fs, const PostgresConfig& config, Version version, Stats& stats);

  // Creates the segment files as a freshly loaded cluster has them.
  void create_initial_segments();

  // XLogInsert of a record of `record_bytes`; with `page_lsn`, the record changes that page and
  // carries its full-page image if the page was not changed since the redo point. Returns the
  // record's end LSN (the page's new LSN).
  sim::Task<Lsn> insert(const PgProc& proc, int record_bytes, const Lsn* page_lsn = nullptr);
  // XLogFlush.
  sim::Task<> flush(const PgProc& proc, Lsn target);
  // XLogBackgroundFlush (the WAL writer's round). Returns whether it had work.
  sim::Task<bool> background_flush(const PgProc& proc);
  // XLogSetAsyncXactLSN: an asynchronous commit asks the WAL writer to flush up to lsn.
  void set_async_commit_lsn(Lsn lsn);

  Lsn insert_lsn() const noexcept { return insert_; }
  Lsn write_lsn() const noexcept { return written_; }
  Lsn flush_lsn() const noexcept { return flushed_; }
  Lsn redo_ptr() const noexcept { return redo_; }

  // For a power loss (crash.h). The WAL up to the returned LSN is on stable
  // storage: from `from`, the first WAL block the file system does not hold
  // stable, or write_lsn() (what never left wal_buffers is lost with RAM);
  // never before flush_lsn() where the file system honours fdatasync.
  Lsn durable_lsn(Lsn from) const;
  // Records inserted since a redo point that set_redo_ptr() returned (or the
  // initial one), and of them the first changes of a page since that point:
  // with full_page_writes those carry an image, without they make recovery read the page.
  struct SinceRedo {
    std::int64_t records = 0;
    std::int64_t first_changes = 0;
  };
  SinceRedo since_redo(Lsn redo) const;
  // Commits acknowledged to a client, by commit record end, when tracking is on
  // (only a run with --crash-at needs them: they cost 8 bytes each).
  void track_acknowledged_commits() { tracking_commits_ = true; }
  void commit_acknowledged(Lsn end) {
    if (tracking_commits_) acknowledged_.push_back(end);
  }
  // Acknowledged commits whose record ends after `lsn`, and all of them.
  std::int64_t acknowledged_after(Lsn lsn) const;
  std::int64_t acknowledged_commits() const { return static_cast<std::int64_t>(acknowledged_.size()); }
  bool needs_flush(Lsn lsn) const noexcept { return lsn > flushed_; }

  // The checkpoint's redo point: from now on first changes carry images.
  Lsn set_redo_ptr();

  struct SegmentCounts {
    int added = 0;
    int removed = 0;
    int recycled = 0;
  };
  // RemoveOldXlogFiles: segments before keep_lsn's are recycled (up to recycle_limit_segno) or removed.
  SegmentCounts remove_old_segments(Lsn keep_lsn, std::int64_t recycle_limit_segno);
  // PreallocXlogFiles: the next segment, if the insert position is past 75% of the current one.
  sim::Task<int> preallocate(const PgProc& proc);

  // Called with the number of each segment finished (written and fdatasync'ed).
  void on_segment_finished(std::function<void(std::int64_t segno)> callback) { on_segment_done_ = std::move(callback); }
  // Open write transactions other than the caller's, for commit_siblings.
  void set_active_xacts(const std::int64_t* count) { active_xacts_ = count; }
  // The WAL writer process: XLogBackgroundFlush every wal_writer_delay; after 50 idle rounds
  // it sleeps 25 times longer (9.2+) until an asynchronous commit wakes it.
  sim::Process run_writer(const PgProc& proc);

  std::int64_t wal_buffers_bytes() const noexcept { return wal_buffers_; }
  std::int64_t segment_files() const;

 private:
  static Lsn advance(Lsn pos, std::int64_t bytes);
  sim::Task<> write(const PgProc& proc, Lsn upto, bool flush);
  void count_io_time(double& total_ms, sim::Time start) const;  // track_wal_io_timing
  sim::Task<os::FileId> open_segment(const PgProc& proc, std::int64_t segno);
  sim::Task<> issue_xlog_fsync(const PgProc& proc, os::FileId file);
  os::FileId& file_of(std::int64_t segno);
  bool enough_siblings() const;

  sim::Simulator& sim_;
  os::FileSystem& fs_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  std::int64_t wal_buffers_;
  Lsn insert_;
  Lsn written_;
  Lsn flushed_;
  Lsn redo_;
  Lsn async_commit_lsn_ = 0;
  // Cumulative since start (never reset with the statistics), and their values at each redo point.
  std::int64_t records_total_ = 0, first_changes_total_ = 0;
  struct RedoMark {
    Lsn redo;
    SinceRedo at;
  };
  std::vector<RedoMark> redo_marks_;
  bool tracking_commits_ = false;
  std::vector<Lsn> acknowledged_;  // commit record ends, in acknowledgement order
  sim::LWLock write_lock_;  // WALWriteLock
  std::vector<os::FileId> seg_files_;  // by segment number; -1: no file
  std::int64_t oldest_segno_ = 1;
  std::int64_t newest_file_segno_ = 1;  // highest segment number that has a file
  std::int64_t next_file_name_ = 0;
  sim::Time last_background_flush_ = 0;
  const std::int64_t* active_xacts_ = nullptr;
  std::function<void(std::int64_t)> on_segment_done_;
  Latch writer_latch_;
  bool writer_hibernating_ = false;
};

}  // namespace ckptsim::postgres
