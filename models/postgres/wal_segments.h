// models/postgres/wal_segments.h
//
// The WAL's segment files (xlog.c, unchanged in what is modelled from 9.0 to
// 17): XLogFileInit creates and zero-fills a segment that has no file when
// someone first writes into it (a temporary name, then its own); at
// checkpoint end RemoveOldXlogFiles renames the segments before the kept
// redo point into future names (InstallXLogFileSegment) up to the version's
// recycle target, and truncates the rest. Files live on the Wal volume,
// 16 MB each, named by XLogFileName on timeline 1.
//
// Left out: timelines, .partial and archive status files, wal_recycle = off,
// wal_init_zero = off (12+).
#pragma once

#include <cstdint>
#include <vector>

#include "models/os/file_system.h"
#include "models/postgres/postgres_config.h"
#include "models/postgres/proc.h"
#include "models/postgres/stats.h"
#include "models/postgres/version.h"
#include "sim/sync.h"

namespace ckptsim::postgres {

inline constexpr sim::Bytes kWalSegmentBytes = 16 * sim::kMiB;

class WalSegments {
 public:
  WalSegments(os::FileSystem& fs, const PostgresConfig& config, Version version, Stats& stats)
      : fs_(fs), config_(config), version_(version), stats_(stats) {}

  // The files a freshly loaded cluster has: segment 1 and the recycled ones
  // ahead of it, after a load that wrote `load_wal_bytes` of WAL (0: its WAL
  // was skipped, wal_level minimal).
  void create_initial(std::int64_t load_wal_bytes);
  // The file of `segno`, created and zero-filled first if it has none (XLogFileInit).
  sim::Task<os::FileId> open(const PgProc& proc, std::int64_t segno);
  bool has_file(std::int64_t segno) const noexcept { return file(segno) >= 0; }
  // -1: no file.
  os::FileId file(std::int64_t segno) const noexcept {
    return static_cast<std::size_t>(segno) < files_.size() ? files_[static_cast<std::size_t>(segno)] : -1;
  }
  std::int64_t count() const;

  struct Counts {
    int added = 0;
    int removed = 0;
    int recycled = 0;
  };
  // RemoveOldXlogFiles: segments before keep_lsn's are recycled (up to recycle_limit_segno) or removed.
  Counts remove_old(std::int64_t keep_lsn, std::int64_t recycle_limit_segno);

 private:
  os::FileId& slot(std::int64_t segno);

  os::FileSystem& fs_;
  const PostgresConfig& config_;
  Version version_;
  Stats& stats_;
  std::vector<os::FileId> files_;  // by segment number; -1: no file
  std::int64_t oldest_segno_ = 1;
  std::int64_t newest_file_segno_ = 1;  // highest segment number that has a file
  std::int64_t next_temp_name_ = 0;
};

}  // namespace ckptsim::postgres
