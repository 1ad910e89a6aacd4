// models/postgres/wal.cpp
//
// Insertion with full-page images, group-commit flushing, XLogWrite.
#include "models/postgres/wal.h"

#include <algorithm>

namespace ckptsim::postgres {

namespace {
constexpr int kPageHeaderBytes = 24;      // XLogPageHeaderData
constexpr int kLongPageHeaderBytes = 40;  // XLogLongPageHeaderData, a segment's first page
// XLOG_FPI_FOR_HINT without its image: XLogRecord (24), the block header (4),
// RelFileLocator (12) and BlockNumber (4); the image header is in kFullPageImageBytes.
constexpr int kHintRecordBytes = 44;
}  // namespace

Wal::Wal(sim::Simulator& sim, os::FileSystem& fs, const PostgresConfig& config, Version version, Stats& stats)
    : sim_(sim),
      fs_(fs),
      config_(config),
      version_(version),
      stats_(stats),
      // The cluster's WAL starts in segment 1, just past its long page header.
      ledger_(kWalSegmentBytes + kLongPageHeaderBytes),
      write_lock_(sim),
      segments_(fs, config, version, stats),
      writer_(sim, *this, config, version) {
  wal_buffers_ = effective_wal_buffers(config);
  insert_ = written_ = flushed_ = redo_ = kWalSegmentBytes + kLongPageHeaderBytes;
}

Lsn Wal::advance(Lsn pos, std::int64_t bytes) {
  pos = (pos + 7) & ~Lsn{7};  // MAXALIGN
  while (bytes > 0) {
    if (pos % kWalPageBytes == 0) pos += pos % kWalSegmentBytes == 0 ? kLongPageHeaderBytes : kPageHeaderBytes;
    const std::int64_t room = kWalPageBytes - pos % kWalPageBytes;
    const std::int64_t take = std::min(room, bytes);
    pos += take;
    bytes -= take;
  }
  return pos;
}

sim::Task<Lsn> Wal::insert(const PgProc& proc, int record_bytes, const Lsn* page_lsn) {
  return insert_record(proc, record_bytes, page_lsn, false);
}

sim::Task<Lsn> Wal::save_buffer_for_hint(const PgProc& proc, Lsn page_lsn) {
  if (page_lsn > redo_) co_return Lsn{0};
  ++stats_.wal_fpi_for_hint;
  co_return co_await insert_record(proc, kHintRecordBytes, &page_lsn, true);
}

sim::Task<Lsn> Wal::insert_record(const PgProc& proc, int record_bytes, const Lsn* page_lsn, bool force_image) {
  // ReserveXLogInsertLocation, with the image decision made against the redo pointer of this instant.
  std::int64_t size = record_bytes;
  const bool first_change = page_lsn != nullptr && *page_lsn <= redo_;
  ledger_.count_record(first_change);
  if (first_change && (config_.full_page_writes || force_image)) {
    size += config_.wal_compression != WalCompression::Off ? kFullPageImageBytes / 3 : kFullPageImageBytes;
    ++stats_.wal_fpi;
  }
  const Lsn end = advance(insert_, size);
  insert_ = end;
  ++stats_.wal_records;
  stats_.wal_bytes += size;
  // AdvanceXLInsertBuffer: the ring's oldest pages must be written before we can copy into them.
  bool counted = false;
  while (end - written_ > wal_buffers_) {
    if (!counted) {
      ++stats_.wal_buffers_full;
      counted = true;
    }
    if (const auto held = write_lock_.try_exclusive()) {
      co_await write(proc, end - wal_buffers_, false);
    } else {
      const WaitScope waiting = report_wait(proc, WaitEvent::LwWalWrite);
      co_await write_lock_.released();
    }
  }
  co_return end;
}

sim::Task<> Wal::flush(const PgProc& proc, Lsn target) {
  target = std::min(target, insert_);
  bool delayed = false;
  while (flushed_ < target) {
    if (config_.commit_delay > 0 && !version_.commit_delay_by_leader() && !delayed && enough_siblings()) {
      // 9.2-: every committer sleeps before flushing, hoping others join its flush.
      delayed = true;
      const WaitScope waiting = report_wait(proc, WaitEvent::CommitDelay);
      co_await sim_.sleep(config_.commit_delay);
      continue;
    }
    const auto held = write_lock_.try_exclusive();
    if (!held) {
      // LWLockAcquireOrWait: wait for the holder, then re-check whether its flush covered us.
      const WaitScope waiting = report_wait(proc, WaitEvent::LwWalWrite);
      co_await write_lock_.released();
      continue;
    }
    if (config_.commit_delay > 0 && version_.commit_delay_by_leader() && enough_siblings()) {
      const WaitScope waiting = report_wait(proc, WaitEvent::CommitDelay);
      co_await sim_.sleep(config_.commit_delay);  // the leader waits for followers to insert
    }
    ++stats_.wal_flushes;
    co_await write(proc, insert_, true);  // everything inserted so far: group commit
  }
}

// XLogWrite and issue_xlog_fsync (14+) add the time of each pg_pwrite and
// each sync to pg_stat_wal only with track_wal_io_timing on; the zero-filling
// of a new segment (XLogFileInit) is not counted.
void Wal::count_io_time(double& total_ms, sim::Time start) const {
  if (config_.track_wal_io_timing) total_ms += sim::to_millis(sim_.now() - start);
}

sim::Task<> Wal::write(const PgProc& proc, Lsn upto, bool flush) {
  // Whole pages: the partial page at `written_` is written again.
  while (written_ < upto) {
    const std::int64_t segno = written_ / kWalSegmentBytes;
    const Lsn seg_end = (segno + 1) * kWalSegmentBytes;
    const Lsn piece_end = std::min(upto, seg_end);
    const std::int64_t first_block = (written_ % kWalSegmentBytes) / kWalPageBytes;
    const std::int64_t end_block = (piece_end - segno * kWalSegmentBytes + kWalPageBytes - 1) / kWalPageBytes;
    const os::FileId file = co_await segments_.open(proc, segno);
    {
      const WaitScope waiting = report_wait(proc, WaitEvent::WalWrite);
      const sim::Time start = sim_.now();
      co_await fs_.write(*proc.task, file, first_block, end_block - first_block);
      count_io_time(stats_.wal_write_time, start);
    }
    ++stats_.wal_write;
    Stats::WalIo& io = stats_.wal_io[static_cast<std::size_t>(proc.kind)];
    ++io.writes;
    io.write_bytes += (end_block - first_block) * kWalPageBytes;
    written_ = piece_end;
    if (piece_end == seg_end) {
      // A finished segment is synced at once, then may trigger a checkpoint.
      co_await issue_xlog_fsync(proc, file);
      flushed_ = std::max(flushed_, piece_end);
      if (on_segment_done_) on_segment_done_(segno);
    }
  }
  if (flush && flushed_ < upto) {
    const os::FileId file = co_await segments_.open(proc, (upto - 1) / kWalSegmentBytes);
    co_await issue_xlog_fsync(proc, file);
    flushed_ = std::max(flushed_, upto);
  }
}

// issue_xlog_fsync: nothing with fsync off (not even the wal_sync count),
// else fdatasync or fsync as wal_sync_method says.
sim::Task<> Wal::issue_xlog_fsync(const PgProc& proc, os::FileId file) {
  if (!config_.fsync) co_return;
  {
    const WaitScope waiting = report_wait(proc, WaitEvent::WalSync);
    const sim::Time start = sim_.now();
    if (config_.wal_sync_method == WalSyncMethod::Fsync) {
      co_await fs_.fsync(*proc.task, file);
    } else {
      co_await fs_.fdatasync(*proc.task, file);
    }
    count_io_time(stats_.wal_sync_time, start);
  }
  ++stats_.wal_sync;
  ++stats_.wal_io[static_cast<std::size_t>(proc.kind)].fsyncs;
}

sim::Task<int> Wal::preallocate(const PgProc& proc) {
  const std::int64_t segno = insert_ / kWalSegmentBytes;
  if (insert_ % kWalSegmentBytes < kWalSegmentBytes * 3 / 4 || segments_.has_file(segno + 1)) co_return 0;
  co_await segments_.open(proc, segno + 1);
  co_return 1;
}

Lsn Wal::set_redo_ptr() {
  // The redo point is where the next record will start (an online checkpoint's REDO location).
  redo_ = advance(insert_, 0);
  ledger_.mark_redo(redo_);
  return redo_;
}

bool Wal::enough_siblings() const {
  // MinimumActiveBackends: other open write transactions than the flusher's own.
  return active_xacts_ != nullptr && *active_xacts_ - 1 >= config_.commit_siblings;
}

sim::Task<bool> Wal::background_write(const PgProc& proc, Lsn target, bool flush) {
  while (write_lock_.held()) co_await write_lock_.released();
  if (flushed_ >= target) co_return false;
  const auto held = write_lock_.try_exclusive();
  co_await write(proc, target, flush);
  co_return true;
}

Lsn Wal::durable_lsn(Lsn from) const {
  Lsn pos = from;
  while (pos < written_) {
    const std::int64_t segno = pos / kWalSegmentBytes;
    const Lsn seg_start = segno * kWalSegmentBytes;
    const Lsn seg_end = std::min<Lsn>(seg_start + kWalSegmentBytes, written_);
    const os::FileId file = segments_.file(segno);
    if (file < 0) return pos;
    const std::int64_t first = (pos - seg_start) / kWalPageBytes;
    const std::int64_t last = (seg_end - seg_start + kWalPageBytes - 1) / kWalPageBytes;
    const std::vector<std::int64_t> unstable = fs_.unstable_blocks(file, first, last);
    if (!unstable.empty()) {
      const Lsn hole = std::max(pos, seg_start + unstable.front() * kWalPageBytes);
      // XLogWrite rewrites the last partial page with the same bytes in front: a
      // rewrite in flight leaves what an honoured fdatasync already made stable.
      return config_.fsync && fs_.fsync_is_durable(file) ? std::max(hole, std::min(flushed_, written_)) : hole;
    }
    pos = seg_end;
  }
  return written_;
}

}  // namespace ckptsim::postgres
