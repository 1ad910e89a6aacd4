// models/os/bdi_writeback.cpp
//
// The per-device flusher and its inode lists (see bdi_writeback.h).
#include "models/os/bdi_writeback.h"

#include <algorithm>
#include <iterator>

#include "models/os/dirty_throttle.h"

namespace ckptsim::os {

namespace {
constexpr std::int64_t kMinWritebackBlocks = 4 * sim::kMiB / kBlockBytes;  // MIN_WRITEBACK_PAGES
constexpr sim::Duration kBandwidthInterval = 200 * sim::kMillisecond;      // BANDWIDTH_INTERVAL
constexpr sim::Duration kBandwidthWindow = 3 * sim::kSecond;
}  // namespace

BdiWriteback::BdiWriteback(sim::Simulator& sim, const OsConfig& config, const PageCache& cache, WritebackHost& host,
                           const DirtyThrottle& limits, std::unique_ptr<BlockDevice> queue, double write_bw)
    : sim_(sim),
      config_(config),
      cache_(cache),
      host_(host),
      limits_(limits),
      queue_(std::move(queue)),
      wake_timer_(sim, [this] { wake(); }),
      write_bw_(write_bw) {}

BdiWriteback::~BdiWriteback() {
  b_dirty_.clear();
  b_io_.clear();
  b_more_io_.clear();
}

void BdiWriteback::wake() {
  wake_timer_.cancel();
  if (sleeper_) {
    auto h = sleeper_;
    sleeper_ = nullptr;
    sim_.resume_now(h);
  }
}

void BdiWriteback::wake_background() {
  background_wanted_ = true;
  wake();
}

// __mark_inode_dirty(I_DIRTY_PAGES), list part; bdi_wakeup_thread_delayed: a
// flusher asleep with nothing dirty comes back one dirty_writeback_centisecs later.
void BdiWriteback::inode_dirtied(Inode& in) {
  list_move(in, WbList::Dirty);
  const sim::Duration interval = config_.dirty_writeback_centisecs * 10 * sim::kMillisecond;
  if (sleeper_ && !wake_timer_.pending() && interval > 0) wake_timer_.schedule_in(interval);
}

void BdiWriteback::list_move(Inode& in, WbList to) {
  switch (in.list) {
    case WbList::Dirty: b_dirty_.erase(b_dirty_.iterator_to(in)); break;
    case WbList::Io: b_io_.erase(b_io_.iterator_to(in)); break;
    case WbList::MoreIo: b_more_io_.erase(b_more_io_.iterator_to(in)); break;
    case WbList::None: break;
  }
  in.list = to;
  switch (to) {
    case WbList::Dirty: b_dirty_.push_back(in); break;
    case WbList::Io: b_io_.push_back(in); break;
    case WbList::MoreIo: b_more_io_.push_back(in); break;
    case WbList::None: break;
  }
}

// queue_io: b_more_io first, then the expired part of b_dirty, oldest first.
void BdiWriteback::queue_io(sim::Time older_than) {
  while (!b_more_io_.empty()) list_move(b_more_io_.front(), WbList::Io);
  while (!b_dirty_.empty() && b_dirty_.front().dirtied_when <= older_than) list_move(b_dirty_.front(), WbList::Io);
}

void BdiWriteback::requeue_inode(Inode& in, std::int64_t written, std::int64_t chunk) {
  if (in.nr_dirty == 0) {
    in.dirty = false;
    in.dirtied_when = 0;
    list_move(in, WbList::None);
    return;
  }
  in.dirty = true;
  if (written >= chunk) {
    list_move(in, WbList::MoreIo);  // keeps dirtied_when
    return;
  }
  // Could not make progress (its pages are under writeback): to the newest
  // end of b_dirty, no older than the newest entry there.
  if (!b_dirty_.empty() && in.dirtied_when < b_dirty_.back().dirtied_when) in.dirtied_when = sim_.now();
  if (in.dirtied_when == 0) in.dirtied_when = sim_.now();
  list_move(in, WbList::Dirty);
}

// writeback_chunk_size: >= 4 MiB, scaled to half a second of bandwidth and
// an eighth of the dirty limit (3.1+); a fixed 4 MiB before.
std::int64_t BdiWriteback::writeback_chunk(std::int64_t nr_left) const {
  if (config_.writeback_chunk == WritebackChunk::Fixed) return kMinWritebackBlocks;
  const auto limit_blocks = static_cast<std::int64_t>(limits_.dirty_limit(*this)) / kPagesPerBlock;
  std::int64_t chunk = std::min({static_cast<std::int64_t>(write_bw_ / 2), limit_blocks / 8, nr_left});
  chunk = (chunk + kMinWritebackBlocks) / kMinWritebackBlocks * kMinWritebackBlocks;
  return std::max(chunk, kMinWritebackBlocks);
}

// bdi_update_write_bandwidth: blocks completed per second, blended over 3 s.
// A device idle for more than a second before this writeback started is not
// measured: the stamps move on and the estimate stays ("skip quiet periods",
// __bdi_update_bandwidth, mm/page-writeback.c 3.1+).
void BdiWriteback::update_bandwidth(sim::Time start_time) {
  const sim::Time now = sim_.now();
  const sim::Duration elapsed = now - bw_time_stamp_;
  if (elapsed < kBandwidthInterval) return;
  if (elapsed > sim::kSecond && bw_time_stamp_ < start_time) {
    bw_written_stamp_ = written_;
    bw_time_stamp_ = now;
    return;
  }
  const double observed = static_cast<double>(written_ - bw_written_stamp_) / sim::to_seconds(elapsed);
  if (elapsed >= kBandwidthWindow) {
    write_bw_ = observed;
  } else {
    write_bw_ =
        (observed * static_cast<double>(elapsed) + write_bw_ * static_cast<double>(kBandwidthWindow - elapsed)) /
        static_cast<double>(kBandwidthWindow);
  }
  write_bw_ = std::max(write_bw_, 1.0);
  bw_written_stamp_ = written_;
  bw_time_stamp_ = now;
}

// writeback_sb_inodes over b_io: one chunk per inode, re-checking every 100 ms.
sim::Task<std::int64_t> BdiWriteback::writeback_inodes(std::int64_t nr, sim::Time older_than, WbReason reason, int pid,
                                                       sim::Time work_start) {
  if (b_io_.empty()) queue_io(older_than);
  std::int64_t progress = 0;
  const sim::Time t0 = sim_.now();
  while (!b_io_.empty() && nr > 0) {
    Inode& in = b_io_.front();
    if (in.i_sync) {
      list_move(in, WbList::MoreIo);
      continue;
    }
    list_move(in, WbList::None);
    const std::int64_t chunk = std::min(writeback_chunk(nr), nr);
    in.i_sync = true;
    in.dirty = false;  // I_DIRTY_PAGES cleared for the pass; set again if pages stay dirty
    Plug plug;
    const std::int64_t n = co_await host_.write_pages(
        in, {.nr_to_write = chunk, .range_cyclic = true, .reason = reason, .pid = pid}, plug);
    queue_->unplug(plug);
    in.i_sync = false;
    nr -= n;
    progress += n;
    requeue_inode(in, n, chunk);
    update_bandwidth(work_start);
    if (progress > 0 && sim_.now() - t0 >= 100 * sim::kMillisecond) break;
  }
  co_return progress;
}

sim::Task<std::int64_t> BdiWriteback::wb_writeback(WbWork work) {
  const sim::Time started = sim_.now();
  std::int64_t total = 0;
  busy_ = true;
  for (;;) {
    if (work.nr_pages <= 0) break;
    const bool periodic = work.reason == WbReason::Kupdate || work.reason == WbReason::Background;
    if (periodic && !work_list_.empty()) break;  // explicit work goes first
    if (work.reason == WbReason::Background && !limits_.over_bground_thresh()) break;
    const sim::Time older_than = work.reason == WbReason::Kupdate
                                     ? sim_.now() - config_.dirty_expire_centisecs * 10 * sim::kMillisecond
                                 : work.reason == WbReason::Background ? sim_.now()
                                                                       : started;
    const std::int64_t progress = co_await writeback_inodes(work.nr_pages, older_than, work.reason, 0, started);
    work.nr_pages -= progress;
    total += progress;
    update_bandwidth(started);
    if (progress > 0) continue;
    if (b_more_io_.empty()) break;
    // Every inode left is being written by someone else: let them finish.
    co_await sim_.sleep(10 * sim::kMillisecond);
  }
  busy_ = false;
  co_return total;
}

sim::Process BdiWriteback::flusher() {
  const sim::Duration interval = config_.dirty_writeback_centisecs * 10 * sim::kMillisecond;
  for (;;) {
    while (!work_list_.empty()) {
      const WbWork work = work_list_.front();
      work_list_.pop_front();
      co_await wb_writeback(work);
    }
    // wb_check_old_data_flush
    if (interval > 0 && sim_.now() - last_old_flush_ >= interval) {
      last_old_flush_ = sim_.now();
      const auto inodes = static_cast<std::int64_t>(b_dirty_.size() + b_io_.size() + b_more_io_.size());
      if (inodes > 0) co_await wb_writeback(WbWork{cache_.dirty() + inodes, WbReason::Kupdate});
    }
    // wb_check_background_flush
    if (background_wanted_ || limits_.over_bground_thresh()) {
      background_wanted_ = false;
      if (limits_.over_bground_thresh() && co_await wb_writeback(WbWork{INT64_MAX / 4, WbReason::Background}) == 0) {
        // Everything dirty is already under writeback: wait for completions (congestion_wait).
        co_await FlusherSleep{*this, sim_.now() + 100 * sim::kMillisecond};
        continue;
      }
    }
    if (!work_list_.empty() || background_wanted_) continue;
    const bool has_dirty = !b_dirty_.empty() || !b_io_.empty() || !b_more_io_.empty();
    co_await FlusherSleep{*this, has_dirty && interval > 0 ? last_old_flush_ + interval : -1};
  }
}

void BdiWriteback::add_iostat_columns(sim::Table& system, const std::string& p) {
  system.add_source({p + "r_s", p + "w_s", p + "rmb_s", p + "wmb_s", p + "rrqm_s", p + "wrqm_s", p + "r_await",
                     p + "w_await", p + "rareq_sz", p + "wareq_sz", p + "aqu_sz", p + "util_pct"},
                    [this](const sim::Interval& interval, std::span<sim::Cell> cells) {
                      const DiskStats now = queue_->stats();
                      const Iostat io = iostat(last_stats_, now, interval.end - interval.start);
                      last_stats_ = now;
                      const double values[] = {io.r_s,      io.w_s,      io.rmb_s,   io.wmb_s,
                                               io.rrqm_s,   io.wrqm_s,   io.r_await, io.w_await,
                                               io.rareq_sz, io.wareq_sz, io.aqu_sz,  io.util_pct};
                      std::copy(std::begin(values), std::end(values), cells.begin());
                    });
  last_stats_ = queue_->stats();  // the first interval counts from the sampler's start, not from time 0
}

KernelReport::Device BdiWriteback::report(std::string name) const {
  const auto ms = [](sim::Duration d) { return sim::to_millis(d); };
  const DiskStats s = queue_->stats();
  KernelReport::Device d;
  d.name = std::move(name);
  d.scheduler = queue_->scheduler();
  d.nr_requests = queue_->nr_requests();
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
  d.write_bw_estimate_mb_s = write_bw_ * static_cast<double>(kBlockBytes) / sim::kMiB;
  return d;
}

}  // namespace ckptsim::os
