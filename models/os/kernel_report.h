// models/os/kernel_report.h
//
// What the kernel tells at the end of a run, as plain figures (the runner
// writes them into summary.json): the dirty thresholds it computed, where
// its writeback went, the page cache's hits, throttling and fsync times, and
// each block device's iostat totals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ckptsim::os {

struct KernelReport {
  std::string kernel;
  double page_cache_mb = 0;
  double dirtyable_mb = 0;
  double dirty_background_thresh_mb = 0;
  double dirty_thresh_mb = 0;
  double dirty_freerun_mb = 0;
  double peak_dirty_writeback_mb = 0;
  double dirty_mb_at_end = 0;
  std::int64_t pages_dirtied = 0;
  std::int64_t pages_written_kupdate = 0;
  std::int64_t pages_written_background = 0;
  std::int64_t pages_written_fsync = 0;
  std::int64_t pages_written_sync_file_range = 0;
  std::int64_t pages_written_throttled_writers = 0;
  std::int64_t pages_written_fadvise = 0;
  std::int64_t pages_written_ordered_data = 0;  // by jbd2 commits (data=ordered)
  std::int64_t pages_discarded_by_truncate = 0;
  std::int64_t read_hits = 0;
  std::int64_t read_misses = 0;
  std::int64_t readahead_blocks = 0;
  std::int64_t throttle_pauses = 0;
  double throttle_seconds = 0;
  double throttle_max_pause_ms = 0;
  std::int64_t fsyncs = 0;
  double fsync_mean_ms = 0;
  double fsync_max_ms = 0;
  std::int64_t sync_file_range_calls = 0;
  std::int64_t journal_commits = 0;
  std::int64_t journal_handle_waits = 0;  // handles that waited for a T_LOCKED commit
  double journal_locked_seconds = 0;      // time commits spent T_LOCKED
  double journal_locked_max_ms = 0;

  // iostat -x totals of one block device.
  struct Device {
    std::string name;  // "data", "wal"
    std::string scheduler;
    int nr_requests = 0;
    std::int64_t reads = 0;
    std::int64_t writes = 0;
    std::int64_t read_merges = 0;
    std::int64_t write_merges = 0;
    double read_mb = 0;
    double write_mb = 0;
    double r_await = 0;
    double w_await = 0;
    std::int64_t flushes = 0;
    double flush_await = 0;
    double util_pct = 0;
    double write_bw_estimate_mb_s = 0;
  };
  std::vector<Device> devices;
};

}  // namespace ckptsim::os
