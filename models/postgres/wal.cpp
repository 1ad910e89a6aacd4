// models/postgres/wal.cpp
//
// Insertion with full-page images, group-commit flushing, segment files.
#include "models/postgres/wal.h"

#include <algorithm>
#include <cstdio>

namespace ckptsim::postgres {

namespace {
constexpr std::int64_t kBlocksPerWalSegment = kWalSegmentBytes / os::kBlockBytes;
constexpr int kPageHeaderBytes = 24;       // XLogPageHeaderData
constexpr int kLongPageHeaderBytes = 40;   // XLogLongPageHeaderData, a segment's first page
}  // namespace

Wal::Wal(sim::Simulator& sim, os::FileSystem& fs, const PostgresConfig& config, Version version, Stats& stats)
    : sim_(sim),
      fs_(fs),
      config_(config),
      version_(version),
      stats_(stats),
      write_lock_(sim),
      writer_latch_(sim) {
  wal_buffers_ = effective_wal_buffers(config);
  // The cluster's WAL starts in segment 1, just past its long page header.
  insert_ = written_ = flushed_ = redo_ = kWalSegmentBytes + kLongPageHeaderBytes;
  redo_marks_.push_back({redo_, {}});
}

void Wal::create_initial_segments() {
  // Segment 1 holds the current WAL; a loaded cluster also has recycled segments ahead of it:
  // min_wal_size of them (9.5+) or checkpoint_segments (9.4-).
  const std::int64_t ahead = version_.has_max_wal_size()
                                 ? std::max<std::int64_t>(config_.min_wal_size / kWalSegmentBytes, 2) - 1
                                 : std::max<std::int64_t>(config_.checkpoint_segments, 1);
  for (std::int64_t segno = 1; segno <= 1 + ahead; ++segno) {
    char name[40];
    std::snprintf(name, sizeof name, "pg_wal/%08X%08X%08X", 1u, static_cast<unsigned>(segno >> 32),
                  static_cast<unsigned>(segno & 0xFFFFFFFF));
    file_of(segno) = fs_.create(name, os::Volume::Wal, kBlocksPerWalSegment, kBlocksPerWalSegment);
    newest_file_segno_ = segno;
  }
}

os::FileId& Wal::file_of(std::int64_t segno) {
  if (static_cast<std::size_t>(segno) >= seg_files_.size()) seg_files_.resize(static_cast<std::size_t>(segno) + 256, -1);
  return seg_files_[static_cast<std::size_t>(segno)];
}

std::int64_t Wal::segment_files() const {
  return std::count_if(seg_files_.begin(), seg_files_.end(), [](os::FileId f) { return f >= 0; });
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
  // ReserveXLogInsertLocation, with the image decision made against the redo pointer of this instant.
  std::int64_t size = record_bytes;
  const bool first_change = page_lsn != nullptr && *page_lsn <= redo_;
  ++records_total_;
  first_changes_total_ += first_change;
  if (first_change && config_.full_page_writes) {
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
    const os::FileId file = co_await open_segment(proc, segno);
    {
      const WaitScope waiting = report_wait(proc, WaitEvent::WalWrite);
      const sim::Time start = sim_.now();
      co_await fs_.write(*proc.task, file, first_block, end_block - first_block);
      count_io_time(stats_.wal_write_time, start);
    }
    ++stats_.wal_write;
    written_ = piece_end;
    if (piece_end == seg_end) {
      // A finished segment is synced at once, then may trigger a checkpoint.
      co_await issue_xlog_fsync(proc, file);
      flushed_ = std::max(flushed_, piece_end);
      if (on_segment_done_) on_segment_done_(segno);
    }
  }
  if (flush && flushed_ < upto) {
    const os::FileId file = co_await open_segment(proc, (upto - 1) / kWalSegmentBytes);
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
}

sim::Task<os::FileId> Wal::open_segment(const PgProc& proc, std::int64_t segno) {
  if (file_of(segno) >= 0) co_return file_of(segno);
  // XLogFileInit: no recycled file waits under this name: create and zero-fill 16 MB.
  char name[40];
  std::snprintf(name, sizeof name, "pg_wal/xlogtemp.%lld", static_cast<long long>(++next_file_name_));
  const os::FileId file = fs_.create(name, os::Volume::Wal, 0, kBlocksPerWalSegment);
  file_of(segno) = file;
  newest_file_segno_ = std::max(newest_file_segno_, segno);
  ++stats_.wal_segments_added;
  {
    const WaitScope waiting = report_wait(proc, WaitEvent::WalInitWrite);
    co_await fs_.write(*proc.task, file, 0, kBlocksPerWalSegment);
  }
  if (config_.fsync) {  // pg_fsync
    const WaitScope waiting = report_wait(proc, WaitEvent::WalInitSync);
    co_await fs_.fsync(*proc.task, file);
  }
  co_return file;
}

sim::Task<int> Wal::preallocate(const PgProc& proc) {
  const std::int64_t segno = insert_ / kWalSegmentBytes;
  if (insert_ % kWalSegmentBytes < kWalSegmentBytes * 3 / 4 || file_of(segno + 1) >= 0) co_return 0;
  co_await open_segment(proc, segno + 1);
  co_return 1;
}

Lsn Wal::set_redo_ptr() {
  // The redo point is where the next record will start (an online checkpoint's REDO location).
  redo_ = advance(insert_, 0);
  redo_marks_.push_back({redo_, {records_total_, first_changes_total_}});
  if (redo_marks_.size() > 8) redo_marks_.erase(redo_marks_.begin());  // recovery starts at one of the last two
  return redo_;
}

Wal::SegmentCounts Wal::remove_old_segments(Lsn keep_lsn, std::int64_t recycle_limit_segno) {
  SegmentCounts counts;
  const std::int64_t keep_segno = keep_lsn / kWalSegmentBytes;
  for (std::int64_t segno = oldest_segno_; segno < keep_segno; ++segno) {
    const os::FileId file = file_of(segno);
    if (file < 0) continue;
    file_of(segno) = -1;
    if (newest_file_segno_ < recycle_limit_segno) {
      // Renamed to a future segment: whoever enters it finds it ready.
      file_of(++newest_file_segno_) = file;
      ++counts.recycled;
      ++stats_.wal_segments_recycled;
    } else {
      fs_.truncate(file);
      ++counts.removed;
      ++stats_.wal_segments_removed;
    }
  }
  oldest_segno_ = std::max(oldest_segno_, keep_segno);
  return counts;
}

bool Wal::enough_siblings() const {
  // MinimumActiveBackends: other open write transactions than the flusher's own.
  return active_xacts_ != nullptr && *active_xacts_ - 1 >= config_.commit_siblings;
}

void Wal::set_async_commit_lsn(Lsn lsn) {
  if (lsn <= async_commit_lsn_) return;
  async_commit_lsn_ = lsn;
  // Wake the WAL writer if it hibernates, or once a whole page of asynchronous WAL is unflushed.
  const Lsn page_done = lsn - lsn % kWalPageBytes;
  if (writer_hibernating_ || page_done > flushed_) writer_latch_.set();
}

sim::Process Wal::run_writer(const PgProc& proc) {
  constexpr int kLoopsUntilHibernate = 50;
  constexpr int kHibernateFactor = 25;
  int left_till_hibernate = kLoopsUntilHibernate;
  for (;;) {
    const bool worked = co_await background_flush(proc);
    if (worked) {
      left_till_hibernate = kLoopsUntilHibernate;
    } else if (left_till_hibernate > 0) {
      --left_till_hibernate;
    }
    const bool hibernate = left_till_hibernate == 0 && version_.at_least(90200);
    writer_hibernating_ = hibernate;
    co_await writer_latch_.wait(hibernate ? config_.wal_writer_delay * kHibernateFactor : config_.wal_writer_delay);
    writer_hibernating_ = false;
  }
}

sim::Task<bool> Wal::background_flush(const PgProc& proc) {
  // Completed pages, or the latest asynchronous commit if nothing else is pending.
  Lsn target = insert_ - insert_ % kWalPageBytes;
  if (target <= flushed_) target = std::min(async_commit_lsn_, insert_);
  if (target <= flushed_) co_return false;
  bool do_flush = true;
  if (version_.wal_writer_flush_after() && config_.wal_writer_flush_after > 0) {
    // 9.6+: flush only if wal_writer_delay passed since the last flush or enough WAL is pending.
    do_flush = sim_.now() - last_background_flush_ >= config_.wal_writer_delay ||
               target - flushed_ >= config_.wal_writer_flush_after || target <= async_commit_lsn_;
  }
  while (write_lock_.held()) co_await write_lock_.released();
  if (flushed_ >= target) co_return true;
  {
    const auto held = write_lock_.try_exclusive();
    co_await write(proc, target, do_flush);
  }
  if (do_flush) last_background_flush_ = sim_.now();
  co_return true;
}

Lsn Wal::durable_lsn(Lsn from) const {
  Lsn pos = from;
  while (pos < written_) {
    const std::int64_t segno = pos / kWalSegmentBytes;
    const Lsn seg_start = segno * kWalSegmentBytes;
    const Lsn seg_end = std::min<Lsn>(seg_start + kWalSegmentBytes, written_);
    const os::FileId file =
        static_cast<std::size_t>(segno) < seg_files_.size() ? seg_files_[static_cast<std::size_t>(segno)] : -1;
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

Wal::SinceRedo Wal::since_redo(Lsn redo) const {
  for (auto mark = redo_marks_.rbegin(); mark != redo_marks_.rend(); ++mark) {
    if (mark->redo == redo) return {records_total_ - mark->at.records, first_changes_total_ - mark->at.first_changes};
  }
  return {records_total_, first_changes_total_};  // older than the marks kept: everything, an upper bound
}

std::int64_t Wal::acknowledged_after(Lsn lsn) const {
  // Group commit wakes its waiters in no LSN order, so the list is not sorted: count.
  return std::count_if(acknowledged_.begin(), acknowledged_.end(), [lsn](Lsn end) { return end > lsn; });
}

}  // namespace ckptsim::postgres
