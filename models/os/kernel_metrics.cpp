// models/os/kernel_metrics.cpp
//
// What the kernel reports: /proc/meminfo's Dirty and Writeback and iostat -x
// per device (diskstats.h) as system.csv columns each interval, the
// figures of the run (kernel_report.h), blk-throttle's queue where a device has one, and the page conservation check the runner makes at the end.
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "models/os/kernel.h"

namespace ckptsim::os {

namespace {
double mb(std::int64_t pages) { return static_cast<double>(pages * kPageBytes) / sim::kMiB; }
double ms(sim::Duration d) { return sim::to_millis(d); }
}  // namespace

void Kernel::add_system_columns(sim::Table& system) {
  system.add_source({"dirty_mb", "writeback_mb"}, [this](const sim::Interval&, std::span<sim::Cell> cells) {
    cells[0] = mb(dirty_pages());
    cells[1] = mb(writeback_pages());
  });
  // Writeback started in the interval, by who started it (the reasons of
  // writeback_start's trace event, and fsync's, sync_file_range's and the journal's).
  static constexpr std::pair<WbReason, const char*> kReasons[] = {
      {WbReason::Kupdate, "kupdate"},     {WbReason::Background, "background"},
      {WbReason::Fsync, "fsync"},         {WbReason::SyncFileRange, "sync_file_range"},
      {WbReason::Throttle, "throttle"},   {WbReason::Fadvise, "fadvise"},
      {WbReason::Journal, "ordered_data"}};
  std::vector<std::string> columns;
  for (const auto& [reason, name] : kReasons) columns.push_back(fmt::format("writeback_{}_mb_s", name));
  for (const auto& [reason, name] : kReasons) wb_started_[static_cast<std::size_t>(reason)] = pages_written(reason);
  system.add_source(std::move(columns), [this](const sim::Interval& iv, std::span<sim::Cell> cells) {
    const double secs = sim::to_seconds(iv.end - iv.start);
    for (std::size_t i = 0; i < std::size(kReasons); ++i) {
      const auto r = static_cast<std::size_t>(kReasons[i].first);
      const std::int64_t now = pages_written(kReasons[i].first);
      cells[i] = secs > 0 ? mb(now - wb_started_[r]) / secs : 0.0;
      wb_started_[r] = now;
    }
  });
  for (std::size_t i = 0; i < devices_.size(); ++i)
    devices_.at(i).add_iostat_columns(system, i == 0 ? "data_" : "wal_");
  // blk-throttle, only on a limited device (a run without one keeps its columns):
  // bios waiting in it at the interval's end, and the milliseconds they waited in
  // the interval, summed over bios (what the cgroup's io_wait_time would show).
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    BlkThrottle* throttle = devices_.throttle(i);
    if (throttle == nullptr) continue;
    const std::string p = i == 0 ? "" : "wal_";
    auto waited = std::make_shared<sim::Duration>(throttle->stats_now().waited);
    system.add_source({p + "blkthrotl_queued", p + "blkthrotl_wait_ms"},
                      [throttle, waited](const sim::Interval&, std::span<sim::Cell> cells) {
                        const BlkThrottleStats now = throttle->stats_now();
                        cells[0] = now.queued;
                        cells[1] = sim::to_millis(now.waited - *waited);
                        *waited = now.waited;
                      });
  }
}

KernelReport Kernel::report() const {
  const DirtyLimits limits = throttle_->limits();
  KernelReport r;
  r.kernel = config_.kernel;
  r.page_cache_mb = mb(page_cache_capacity_pages());
  r.dirtyable_mb = mb(limits.dirtyable);
  r.dirty_background_thresh_mb = mb(limits.background);
  r.dirty_thresh_mb = mb(limits.thresh);
  r.dirty_freerun_mb = mb(limits.freerun());
  r.peak_dirty_writeback_mb = mb(counts_.peak_dirty * kPagesPerBlock);
  r.dirty_mb_at_end = mb(dirty_pages());
  r.pages_dirtied = counts_.dirtied * kPagesPerBlock;
  r.pages_written_kupdate = pages_written(WbReason::Kupdate);
  r.pages_written_background = pages_written(WbReason::Background);
  r.pages_written_fsync = pages_written(WbReason::Fsync);
  r.pages_written_sync_file_range = pages_written(WbReason::SyncFileRange);
  r.pages_written_throttled_writers = pages_written(WbReason::Throttle);
  r.pages_written_fadvise = pages_written(WbReason::Fadvise);
  r.pages_written_ordered_data = pages_written(WbReason::Journal);
  r.pages_discarded_by_truncate = counts_.discarded * kPagesPerBlock;
  r.read_hits = counts_.read_hits;
  r.read_misses = counts_.read_misses;
  r.readahead_blocks = counts_.readahead_blocks;
  r.throttle_pauses = throttle_->pauses();
  r.throttle_seconds = sim::to_seconds(throttle_->paused());
  r.throttle_max_pause_ms = ms(throttle_->max_pause());
  r.fsyncs = counts_.fsyncs;
  r.fsync_mean_ms = counts_.fsyncs > 0 ? ms(counts_.fsync_time) / static_cast<double>(counts_.fsyncs) : 0.0;
  r.fsync_max_ms = ms(counts_.fsync_max);
  r.sync_file_range_calls = counts_.sync_file_ranges;
  const JournalReport journal = journal_.report();
  r.journal_commits = journal.commits;
  r.journal_handle_waits = journal.handle_waits;
  r.journal_locked_seconds = sim::to_seconds(journal.locked_time);
  r.journal_locked_max_ms = ms(journal.locked_max);
  for (std::size_t i = 0; i < devices_.size(); ++i) r.devices.push_back(devices_.at(i).report(i == 0 ? "data" : "wal"));
  return r;
}

bool Kernel::check_accounting(std::string* why) const {
  if (!cache_.check(why)) return false;
  const std::int64_t started = writepages_.blocks_started(), done = writepages_.blocks_completed();
  const std::int64_t dirtied = counts_.dirtied, discarded = counts_.discarded;
  // Every dirtying ended as a write started, a page dropped by truncate, or is still dirty.
  if (dirtied != started + discarded + cache_.dirty()) {
    if (why) {
      *why = fmt::format("pages dirtied {} != written {} + discarded {} + still dirty {}", dirtied * kPagesPerBlock,
                         started * kPagesPerBlock, discarded * kPagesPerBlock, dirty_pages());
    }
    return false;
  }
  // Every write started has completed or is still under writeback.
  if (started != done + cache_.writeback()) {
    if (why) {
      *why = fmt::format("pages written {} != completed {} + under writeback {}", started * kPagesPerBlock,
                         done * kPagesPerBlock, writeback_pages());
    }
    return false;
  }
  // And the devices wrote exactly those blocks, plus the journal.
  std::int64_t sectors = 0;
  for (std::size_t i = 0; i < devices_.size(); ++i) sectors += devices_.at(i).queue().sectors_written();
  const std::int64_t journal_sectors = journal_.report().sectors;
  if (sectors != done * kSectorsPerBlock + journal_sectors) {
    if (why) {
      *why = fmt::format("devices wrote {} sectors, page cache completed {} blocks ({} sectors) + journal {} sectors",
                         sectors, done, done * kSectorsPerBlock, journal_sectors);
    }
    return false;
  }
  return true;
}

}  // namespace ckptsim::os
