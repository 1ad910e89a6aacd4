// models/os/kernel_metrics.cpp
//
// What the kernel reports: /proc/meminfo's Dirty and Writeback and iostat -x
// per device (diskstats.h) as system.csv columns each interval, the
// figures of the run (kernel_report.h), and the page conservation check the runner makes at the end.
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
  for (std::size_t i = 0; i < bdis_.size(); ++i) {
    const std::string p = i == 0 ? "data_" : "wal_";
    system.add_source({p + "r_s", p + "w_s", p + "rmb_s", p + "wmb_s", p + "rrqm_s", p + "wrqm_s", p + "r_await",
                       p + "w_await", p + "rareq_sz", p + "wareq_sz", p + "aqu_sz", p + "util_pct"},
                      [this, i](const sim::Interval& interval, std::span<sim::Cell> cells) {
                        const DiskStats now = bdis_[i]->queue().stats();
                        const Iostat io = iostat(last_stats_[i], now, interval.end - interval.start);
                        last_stats_[i] = now;
                        cells[0] = io.r_s;
                        cells[1] = io.w_s;
                        cells[2] = io.rmb_s;
                        cells[3] = io.wmb_s;
                        cells[4] = io.rrqm_s;
                        cells[5] = io.wrqm_s;
                        cells[6] = io.r_await;
                        cells[7] = io.w_await;
                        cells[8] = io.rareq_sz;
                        cells[9] = io.wareq_sz;
                        cells[10] = io.aqu_sz;
                        cells[11] = io.util_pct;
                      });
  }
  // The first interval counts from the sampler's start, not from time 0.
  for (std::size_t i = 0; i < bdis_.size(); ++i) last_stats_[i] = bdis_[i]->queue().stats();
}

KernelReport Kernel::report() const {
  const DirtyLimits limits = dirty_limits();
  KernelReport r;
  r.kernel = config_.kernel;
  r.page_cache_mb = mb(cache_.capacity() * kPagesPerBlock);
  r.dirtyable_mb = mb(limits.dirtyable);
  r.dirty_background_thresh_mb = mb(limits.background);
  r.dirty_thresh_mb = mb(limits.thresh);
  r.dirty_freerun_mb = mb(limits.freerun());
  r.peak_dirty_writeback_mb = mb(peak_dirty_pages());
  r.dirty_mb_at_end = mb(dirty_pages());
  r.pages_dirtied = dirtied_ * kPagesPerBlock;
  r.pages_written_kupdate = pages_written(WbReason::Kupdate);
  r.pages_written_background = pages_written(WbReason::Background);
  r.pages_written_fsync = pages_written(WbReason::Fsync);
  r.pages_written_sync_file_range = pages_written(WbReason::SyncFileRange);
  r.pages_written_throttled_writers = pages_written(WbReason::Throttle);
  r.pages_written_fadvise = pages_written(WbReason::Fadvise);
  r.pages_written_ordered_data = pages_written(WbReason::Journal);
  r.pages_discarded_by_truncate = discarded_ * kPagesPerBlock;
  r.read_hits = read_hits_;
  r.read_misses = read_misses_;
  r.readahead_blocks = readahead_blocks_;
  r.throttle_pauses = throttle_->pauses();
  r.throttle_seconds = sim::to_seconds(throttle_->paused());
  r.throttle_max_pause_ms = ms(throttle_->max_pause());
  r.fsyncs = fsyncs_;
  r.fsync_mean_ms = fsyncs_ > 0 ? ms(fsync_time_) / static_cast<double>(fsyncs_) : 0.0;
  r.fsync_max_ms = ms(fsync_max_);
  r.sync_file_range_calls = sync_file_ranges_;
  const JournalReport journal = journal_.report();
  r.journal_commits = journal.commits;
  r.journal_handle_waits = journal.handle_waits;
  r.journal_locked_seconds = sim::to_seconds(journal.locked_time);
  r.journal_locked_max_ms = ms(journal.locked_max);
  for (std::size_t i = 0; i < bdis_.size(); ++i) {
    const BlockDevice& q = bdis_[i]->queue();
    const DiskStats s = q.stats();
    KernelReport::Device d;
    d.name = i == 0 ? "data" : "wal";
    d.scheduler = q.scheduler();
    d.nr_requests = q.nr_requests();
    d.reads = s.reads;
    d.writes = s.writes;
    d.read_merges = s.read_merges;
    d.write_merges = s.write_merges;
    d.read_mb = static_cast<double>(s.read_sectors) / 2048.0;
    d.write_mb = static_cast<double>(s.write_sectors) / 2048.0;
    d.r_await = s.reads > 0 ? ms(s.read_ticks) / static_cast<double>(s.reads) : 0.0;
    d.w_await = s.writes > 0 ? ms(s.write_ticks) / static_cast<double>(s.writes) : 0.0;
    d.flushes = s.flushes;
    d.flush_await = s.flushes > 0 ? ms(s.flush_ticks) / static_cast<double>(s.flushes) : 0.0;
    d.util_pct = sim_.now() > 0 ? 100.0 * static_cast<double>(s.io_ticks) / static_cast<double>(sim_.now()) : 0.0;
    d.write_bw_estimate_mb_s = bdis_[i]->write_bw() * static_cast<double>(kBlockBytes) / sim::kMiB;
    r.devices.push_back(std::move(d));
  }
  return r;
}

bool Kernel::check_accounting(std::string* why) const {
  if (!cache_.check(why)) return false;
  std::int64_t started = 0;
  for (const std::int64_t n : wb_started_) started += n;
  // Every dirtying ended as a write started, a page dropped by truncate, or is still dirty.
  if (dirtied_ != started + discarded_ + cache_.dirty()) {
    if (why) {
      *why = fmt::format("pages dirtied {} != written {} + discarded {} + still dirty {}", dirtied_ * kPagesPerBlock,
                         started * kPagesPerBlock, discarded_ * kPagesPerBlock, dirty_pages());
    }
    return false;
  }
  // Every write started has completed or is still under writeback.
  if (started != wb_done_ + cache_.writeback()) {
    if (why) {
      *why = fmt::format("pages written {} != completed {} + under writeback {}", started * kPagesPerBlock,
                         wb_done_ * kPagesPerBlock, writeback_pages());
    }
    return false;
  }
  // And the devices wrote exactly those blocks, plus the journal.
  std::int64_t sectors = 0;
  for (const auto& bdi : bdis_) sectors += bdi->queue().sectors_written();
  if (sectors != wb_done_ * kSectorsPerBlock + journal_.report().sectors) {
    if (why) {
      *why = fmt::format("devices wrote {} sectors, page cache completed {} blocks ({} sectors) + journal {} sectors",
                         sectors, wb_done_, wb_done_ * kSectorsPerBlock, journal_.report().sectors);
    }
    return false;
  }
  return true;
}

}  // namespace ckptsim::os
