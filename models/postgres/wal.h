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
// A hint-bit change with checksums or wal_log_hints logs the page's image in
// a record of its own (save_buffer_for_hint) under the same rule.
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
// The segment files are WalSegments' (wal_segments.h), the crash report's
// counts WalLedger's (wal_ledger.h). Left out: WAL insertion locks (insertion is instantaneous), the
// archiver, timelines, XLOG_SWITCH, wal_level differences in record size.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/os/file_system.h"
#include "models/postgres/buffer_pool.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/stats.h"
#include "models/postgres/version.h"
#include "models/postgres/wal_ledger.h"
#include "models/postgres/wal_segments.h"
#include "models/postgres/walwriter.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

inline constexpr sim::Bytes kWalPageBytes = 8192;
inline constexpr int kFullPageImageBytes = 8100;  // 8192 - hole (~116 B on a full pgbench page) + image header

class Wal {
 public:
  Wal(sim::Simulator& sim, os::FileSystem& fs, const PostgresConfig& config, Version version, Stats& stats);

  // XLogInsert of a record of `record_bytes`; with `page_lsn`, the record changes that page and
  // carries its full-page image if the page was not changed since the redo point. Returns the
  // record's end LSN (the page's new LSN).
  sim::Task<Lsn> insert(const PgProc& proc, int record_bytes, const Lsn* page_lsn = nullptr);
  // XLogSaveBufferForHint (xloginsert.c): for a hint-bit change, an XLOG_FPI_FOR_HINT record
  // whose image is forced (REGBUF_FORCE_IMAGE, whatever full_page_writes says) if the page has
  // not changed since the redo point; 0 (no record) if it has.
  sim::Task<Lsn> save_buffer_for_hint(const PgProc& proc, Lsn page_lsn);
  // XLogFlush.
  sim::Task<> flush(const PgProc& proc, Lsn target);
  // XLogBackgroundFlush's write under WALWriteLock, once no one else holds
  // it: false if someone's write reached `target` meanwhile.
  sim::Task<bool> background_write(const PgProc& proc, Lsn target, bool flush);

  Lsn insert_lsn() const noexcept { return insert_; }
  Lsn write_lsn() const noexcept { return written_; }
  Lsn flush_lsn() const noexcept { return flushed_; }
  Lsn redo_ptr() const noexcept { return redo_; }

  // For a power loss (crash.h). The WAL up to the returned LSN is on stable
  // storage: from `from`, the first WAL block the file system does not hold
  // stable, or write_lsn() (what never left wal_buffers is lost with RAM);
  // never before flush_lsn() where the file system honours fdatasync.
  Lsn durable_lsn(Lsn from) const;
  bool needs_flush(Lsn lsn) const noexcept { return lsn > flushed_; }

  // The checkpoint's redo point: from now on first changes carry images.
  Lsn set_redo_ptr();

  WalSegments& segments() noexcept { return segments_; }
  const WalSegments& segments() const noexcept { return segments_; }
  WalLedger& ledger() noexcept { return ledger_; }
  const WalLedger& ledger() const noexcept { return ledger_; }
  // PreallocXlogFiles: the next segment, if the insert position is past 75% of the current one.
  sim::Task<int> preallocate(const PgProc& proc);

  // Called with the number of each segment finished (written and fdatasync'ed).
  void on_segment_finished(std::function<void(std::int64_t segno)> callback) { on_segment_done_ = std::move(callback); }
  // Open write transactions other than the caller's, for commit_siblings.
  void set_active_xacts(const std::int64_t* count) { active_xacts_ = count; }
  // The WAL writer process (walwriter.h).
  WalWriter& writer() noexcept { return writer_; }

 private:
  static Lsn advance(Lsn pos, std::int64_t bytes);
  sim::Task<Lsn> insert_record(const PgProc& proc, int record_bytes, const Lsn* page_lsn, bool force_image);
  sim::Task<> write(const PgProc& proc, Lsn upto, bool flush);
  void count_io_time(double& total_ms, sim::Time start) const;  // track_wal_io_timing
  sim::Task<> issue_xlog_fsync(const PgProc& proc, os::FileId file);
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
  WalLedger ledger_;
  sim::LWLock write_lock_;  // WALWriteLock
  WalSegments segments_;
  const std::int64_t* active_xacts_ = nullptr;
  std::function<void(std::int64_t)> on_segment_done_;
  WalWriter writer_;
};

}  // namespace ckptsim::postgres
