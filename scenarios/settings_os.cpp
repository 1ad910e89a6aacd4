// scenarios/settings_os.cpp
//
// Kernel settings: sysctls by their names (vm.*), block-queue attributes and
// elevator tunables by their /sys/block/*/queue names, and the behaviour
// switches of a kernel generation (set by presets/os/<kernel>.json).
#include "scenarios/settings.h"

#include <limits>

namespace ckptsim::scenarios {

void describe_os(Schema<os::OsConfig>& s) {
  using os::OsConfig;
  using sim::kKiB;
  using sim::kMillisecond;
  s.choice("kernel", &OsConfig::kernel, preset_names("os"))
      .integer("vm.dirty_background_ratio", &OsConfig::dirty_background_ratio, 0, 100)
      .integer("vm.dirty_ratio", &OsConfig::dirty_ratio, 0, 100)
      .bytes("vm.dirty_background_bytes", &OsConfig::dirty_background_bytes, 1, 0)
      .bytes("vm.dirty_bytes", &OsConfig::dirty_bytes, 1, 0)
      .integer("vm.dirty_expire_centisecs", &OsConfig::dirty_expire_centisecs, 0, kIntMax)
      .integer("vm.dirty_writeback_centisecs", &OsConfig::dirty_writeback_centisecs, 0, kIntMax)
      .bytes("reserved_memory", &OsConfig::reserved_memory, sim::kMiB, 0)
      .boolean("dirtyable_anon", &OsConfig::dirtyable_anon)
      .boolean("dirty_balance_reserve", &OsConfig::dirty_balance_reserve)
      .choice("throttle", &OsConfig::throttle, os::kThrottleNames)
      .choice("writeback_chunk", &OsConfig::writeback_chunk, os::kWritebackChunkNames)
      .boolean("stable_pages", &OsConfig::stable_pages)
      .boolean("barrier", &OsConfig::barrier)
      .choice("sync_file_range_mode", &OsConfig::sync_file_range_mode, os::kSyncModeNames)
      .choice("block_layer", &OsConfig::block_layer, os::kBlockLayerNames)
      .choice("scheduler", &OsConfig::scheduler, os::kSchedulerNames)
      .choice("wal_scheduler", &OsConfig::wal_scheduler, os::kSchedulerNames)
      .integer("nr_requests", &OsConfig::nr_requests, 0, 100000)
      .bytes("read_ahead_kb", &OsConfig::read_ahead_kb, kKiB, 0)
      .bytes("max_sectors_kb", &OsConfig::max_sectors_kb, kKiB, 8 * kKiB, 32 * sim::kMiB)
      .within(&OsConfig::blkio_throttle, describe_blkio_throttle, kBlkioThrottlePrefix)
      .within(&OsConfig::wal_blkio_throttle, describe_blkio_throttle, kWalBlkioThrottlePrefix)
      .choice("md_layering", &OsConfig::md_layering, os::kMdLayeringNames)
      .integer("md_max_queued_requests", &OsConfig::md_max_queued_requests, 0, 1000000)
      .duration("read_expire", &OsConfig::read_expire, kMillisecond, 1)
      .duration("write_expire", &OsConfig::write_expire, kMillisecond, 1)
      .integer("writes_starved", &OsConfig::writes_starved, 0, kIntMax)
      .integer("fifo_batch", &OsConfig::fifo_batch, 1, kIntMax)
      .integer("quantum", &OsConfig::quantum, 1, kIntMax)
      .duration("slice_sync", &OsConfig::slice_sync, kMillisecond, 1)
      .duration("slice_async", &OsConfig::slice_async, kMillisecond, 1)
      .duration("slice_idle", &OsConfig::slice_idle, kMillisecond, 0)
      .duration("fifo_expire_sync", &OsConfig::fifo_expire_sync, kMillisecond, 1)
      .duration("fifo_expire_async", &OsConfig::fifo_expire_async, kMillisecond, 1)
      .duration("target_latency", &OsConfig::target_latency, kMillisecond, 1)
      .bytes("journal_commit_bytes", &OsConfig::journal_commit_bytes, kKiB, 0)
      .duration("commit_interval", &OsConfig::commit_interval, sim::kSecond, 0)
      .boolean("writepages_holds_handle", &OsConfig::writepages_holds_handle)
      .choice("writepages_scan", &OsConfig::writepages_scan, os::kWritepagesScanNames)
      .boolean("ordered_data", &OsConfig::ordered_data)
      .boolean("fsync_waits_committing", &OsConfig::fsync_waits_committing);
}

// As the cgroup files take them: operations and bytes per second, 0 = no
// limit (blkio.throttle.*_device's u64, io.max's "max"); the bytes in
// PostgreSQL's units ("40MB" = 40 MiB), as every size of a scenario.
void describe_blkio_throttle(Schema<os::BlkThrottleConfig>& s) {
  using os::BlkThrottleConfig;
  s.integer("read_iops", &BlkThrottleConfig::read_iops, 0, std::numeric_limits<std::uint32_t>::max())
      .integer("write_iops", &BlkThrottleConfig::write_iops, 0, std::numeric_limits<std::uint32_t>::max())
      .bytes("read_bps", &BlkThrottleConfig::read_bps, 1, 0)
      .bytes("write_bps", &BlkThrottleConfig::write_bps, 1, 0);
}

}  // namespace ckptsim::scenarios
