// models/postgres/wal_segments.cpp
//
// XLogFileInit, RemoveOldXlogFiles and the initial segments (see wal_segments.h).
#include "models/postgres/wal_segments.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ckptsim::postgres {

namespace {
constexpr std::int64_t kBlocksPerWalSegment = kWalSegmentBytes / os::kBlockBytes;
}  // namespace

void WalSegments::create_initial(std::int64_t load_wal_bytes) {
  // Segment 1 holds the current WAL; a loaded cluster also has recycled segments ahead of it:
  // min_wal_size of them (9.5+) or checkpoint_segments (9.4-) after a load whose WAL was skipped.
  std::int64_t ahead = version_.has_max_wal_size()
                           ? std::max<std::int64_t>(config_.min_wal_size / kWalSegmentBytes, 2) - 1
                           : std::max<std::int64_t>(config_.checkpoint_segments, 1);
  if (load_wal_bytes > 0 && version_.has_max_wal_size()) {
    // A logged load ran its own checkpoints, each CheckPointSegments apart
    // (max_wal_size / (divisor + cct)) once it wrote that much, and each
    // recycled the segments behind its redo up to XLOGfileslop's target: the
    // distance estimate x (divisor + cct) x 1.1 ahead, within min_wal_size and
    // max_wal_size. So pg_wal keeps as many files as that target asks, never
    // more than the load wrote, and they are all ahead of a restarted server.
    const double trigger = static_cast<double>(config_.max_wal_size) /
                           (version_.cps_divisor_base() + config_.checkpoint_completion_target);
    const double estimate = std::min(static_cast<double>(load_wal_bytes), trigger);
    const double distance = (version_.cps_divisor_base() + config_.checkpoint_completion_target) * estimate * 1.10;
    const std::int64_t target = std::clamp(static_cast<std::int64_t>(std::ceil(distance / kWalSegmentBytes)),
                                           config_.min_wal_size / kWalSegmentBytes,
                                           std::max(config_.min_wal_size, config_.max_wal_size) / kWalSegmentBytes);
    const std::int64_t written = (load_wal_bytes + kWalSegmentBytes - 1) / kWalSegmentBytes;
    ahead = std::max(ahead, std::min(target, written) - 1);
  }
  for (std::int64_t segno = 1; segno <= 1 + ahead; ++segno) {
    char name[40];
    std::snprintf(name, sizeof name, "pg_wal/%08X%08X%08X", 1u, static_cast<unsigned>(segno >> 32),
                  static_cast<unsigned>(segno & 0xFFFFFFFF));
    slot(segno) = fs_.create(name, os::Volume::Wal, kBlocksPerWalSegment, kBlocksPerWalSegment);
    newest_file_segno_ = segno;
  }
}

os::FileId& WalSegments::slot(std::int64_t segno) {
  if (static_cast<std::size_t>(segno) >= files_.size()) files_.resize(static_cast<std::size_t>(segno) + 256, -1);
  return files_[static_cast<std::size_t>(segno)];
}

std::int64_t WalSegments::count() const {
  return std::count_if(files_.begin(), files_.end(), [](os::FileId f) { return f >= 0; });
}

sim::Task<os::FileId> WalSegments::open(const PgProc& proc, std::int64_t segno) {
  if (slot(segno) >= 0) co_return slot(segno);
  // XLogFileInit: no recycled file waits under this name: create and zero-fill 16 MB.
  char name[40];
  std::snprintf(name, sizeof name, "pg_wal/xlogtemp.%lld", static_cast<long long>(++next_temp_name_));
  const os::FileId file = fs_.create(name, os::Volume::Wal, 0, kBlocksPerWalSegment);
  slot(segno) = file;
  newest_file_segno_ = std::max(newest_file_segno_, segno);
  ++stats_.wal_segments_added;
  Stats::WalIo& io = stats_.wal_io[static_cast<std::size_t>(proc.kind)];
  {
    const WaitScope waiting = report_wait(proc, WaitEvent::WalInitWrite);
    co_await fs_.write(*proc.task, file, 0, kBlocksPerWalSegment);
  }
  ++io.init_writes;
  io.init_write_bytes += kWalSegmentBytes;
  if (config_.fsync) {  // pg_fsync
    const WaitScope waiting = report_wait(proc, WaitEvent::WalInitSync);
    co_await fs_.fsync(*proc.task, file);
    ++io.init_fsyncs;
  }
  co_return file;
}

WalSegments::Counts WalSegments::remove_old(std::int64_t keep_lsn, std::int64_t recycle_limit_segno) {
  Counts counts;
  const std::int64_t keep_segno = keep_lsn / kWalSegmentBytes;
  for (std::int64_t segno = oldest_segno_; segno < keep_segno; ++segno) {
    const os::FileId file = slot(segno);
    if (file < 0) continue;
    slot(segno) = -1;
    if (newest_file_segno_ < recycle_limit_segno) {
      // Renamed to a future segment: whoever enters it finds it ready.
      slot(++newest_file_segno_) = file;
      ++counts.recycled;
      ++stats_.wal_segments_recycled;
    } else {
      fs_.remove(file);
      ++counts.removed;
      ++stats_.wal_segments_removed;
    }
  }
  oldest_segno_ = std::max(oldest_segno_, keep_segno);
  return counts;
}

}  // namespace ckptsim::postgres
