// models/os/os_config.h
//
// Kernel settings, with sysctl names in the scenario ("vm.dirty_ratio").
// The kernel preset (scenarios/presets/os/NAME.json, chosen by os.kernel)
// sets the defaults and behaviours of one kernel generation: what counts as
// dirtyable memory, the writer-throttling scheme, sync_file_range's mode,
// stable-page waits, the block layer and its default elevator. A preset only
// changes these values; the code has no per-version branches beyond them.
#pragma once

#include <cstdint>
#include <string>

#include "models/os/blk_throttle_config.h"
#include "sim/enum_names.h"
#include "sim/time.h"

namespace ckptsim::os {

// Writer throttling: "io-less" (3.2+: writers sleep, only the flusher writes) or
// "writer-writeback" (<= 3.1: an over-limit writer writes back itself).
enum class Throttle : std::uint8_t { IoLess, WriterWriteback };
inline constexpr sim::EnumNames<Throttle, 2> kThrottleNames{
    {{"io-less", Throttle::IoLess}, {"writer-writeback", Throttle::WriterWriteback}}};

// The flusher's chunk: "bandwidth" (>= 4 MiB scaled to write bandwidth, 3.1+) or "fixed" (4 MiB).
enum class WritebackChunk : std::uint8_t { Bandwidth, Fixed };
inline constexpr sim::EnumNames<WritebackChunk, 2> kWritebackChunkNames{
    {{"bandwidth", WritebackChunk::Bandwidth}, {"fixed", WritebackChunk::Fixed}}};

// How a cyclic writeback pass scans one inode (the flusher's writepages).
// "write-cache-pages" (mm/page-writeback.c write_cache_pages; ext4_writepages
// 3.11+): forward from writeback_index, wrapping to the start of the file in
// the same call while budget is left. "ext4-da" (fs/ext4/inode.c
// ext4_da_writepages with write_cache_pages_da, 2.6.31-3.10): one extent per
// write_cache_pages_da call, each call looking up dirty pages from the pass's
// start again; the wrap to block 0 only in a call that wrote nothing; the
// inode's writeback_index is the last call's done_index.
enum class WritepagesScan : std::uint8_t { WriteCachePages, Ext4Da };
inline constexpr sim::EnumNames<WritepagesScan, 2> kWritepagesScanNames{
    {{"write-cache-pages", WritepagesScan::WriteCachePages}, {"ext4-da", WritepagesScan::Ext4Da}}};

// struct writeback_control's sync_mode: WB_SYNC_NONE / WB_SYNC_ALL.
enum class SyncMode : std::uint8_t { None, All };
inline constexpr sim::EnumNames<SyncMode, 2> kSyncModeNames{{{"all", SyncMode::All}, {"none", SyncMode::None}}};

// "legacy" (request_fn, sync + async request pools) or "blk-mq".
enum class BlockLayer : std::uint8_t { Legacy, BlkMq };
inline constexpr sim::EnumNames<BlockLayer, 2> kBlockLayerNames{
    {{"legacy", BlockLayer::Legacy}, {"blk-mq", BlockLayer::BlkMq}}};

// An elevator as named in /sys/block/*/queue/scheduler; Default ("") is the
// kernel's default for the device (legacy: cfq; blk-mq: mq-deadline if
// rotational, else none).
enum class Scheduler : std::uint8_t { Default, Noop, Deadline, Cfq, None, MqDeadline };
inline constexpr sim::EnumNames<Scheduler, 6> kSchedulerNames{{{"", Scheduler::Default},
                                                               {"noop", Scheduler::Noop},
                                                               {"deadline", Scheduler::Deadline},
                                                               {"cfq", Scheduler::Cfq},
                                                               {"none", Scheduler::None},
                                                               {"mq-deadline", Scheduler::MqDeadline}}};

// How an md RAID1 data device is layered: "raid1d" (Linux 3.x: md without an
// elevator, write clones queued for the raid1d thread, one block queue per
// member; models/os/md_raid1.h) or "device" (the array seen as one device
// under one block queue).
enum class MdLayering : std::uint8_t { Device, Raid1d };
inline constexpr sim::EnumNames<MdLayering, 2> kMdLayeringNames{
    {{"device", MdLayering::Device}, {"raid1d", MdLayering::Raid1d}}};

struct OsConfig {
  std::string kernel = "linux-modern";
  std::int64_t dirty_background_ratio = 10;      // vm.dirty_background_ratio, percent
  std::int64_t dirty_ratio = 20;                 // vm.dirty_ratio, percent
  sim::Bytes dirty_background_bytes = 0;         // vm.dirty_background_bytes, 0 = use the ratio
  sim::Bytes dirty_bytes = 0;                    // vm.dirty_bytes, 0 = use the ratio
  std::int64_t dirty_expire_centisecs = 3000;    // vm.dirty_expire_centisecs
  std::int64_t dirty_writeback_centisecs = 500;  // vm.dirty_writeback_centisecs

  // Memory the page cache can never use: kernel text, slab, page tables and
  // the processes' private memory (shared_buffers is given separately).
  sim::Bytes reserved_memory = 512 * sim::kMiB;

  // --- behaviour switches of a kernel generation (docs/reference/os-disk-model.md section 1) ---
  // Anon/shmem (shared_buffers) counts as dirtyable memory (swap on, < 3.14).
  bool dirtyable_anon = false;
  // Zone high watermarks are subtracted from dirtyable memory (3.3+).
  bool dirty_balance_reserve = true;
  Throttle throttle = Throttle::IoLess;
  WritebackChunk writeback_chunk = WritebackChunk::Bandwidth;
  // A write into a page under writeback waits for that write (3.0-3.8).
  bool stable_pages = false;
  // sync_file_range(SYNC_FILE_RANGE_WRITE): "all" (WB_SYNC_ALL, sync-class, waits for
  // pages already in flight; < 4.4) or "none" (WB_SYNC_NONE, async-class; 4.4+).
  SyncMode sync_file_range_mode = SyncMode::None;

  // --- block layer (/sys/block/*/queue) ---
  BlockLayer block_layer = BlockLayer::BlkMq;
  Scheduler scheduler = Scheduler::Default;
  Scheduler wal_scheduler = Scheduler::Default;  // for the WAL device when it has its own
  std::int64_t nr_requests = 0;  // 0 = the kernel's default (legacy 128; blk-mq 2 x min(depth, 128), none: depth)
  sim::Bytes read_ahead_kb = 128 * sim::kKiB;
  sim::Bytes max_sectors_kb = 512 * sim::kKiB;
  // blk-throttle (cgroup v1 blkio.throttle.*, v2 io.max, systemd IO*Max=) of the
  // data device, and of the WAL device when the WAL has one of its own: blk_throttle.h.
  BlkThrottleConfig blkio_throttle;
  BlkThrottleConfig wal_blkio_throttle;
  // md RAID1 (drivers/md/raid1.c)
  MdLayering md_layering = MdLayering::Device;
  // raid1's max_queued_requests module parameter: write clones pending for
  // raid1d before writers sleep (3.1+: 1024); 0 = no limit (3.0).
  std::int64_t md_max_queued_requests = 1024;
  // deadline / mq-deadline (/sys/block/*/queue/iosched/)
  sim::Duration read_expire = 500 * sim::kMillisecond;
  sim::Duration write_expire = 5000 * sim::kMillisecond;
  std::int64_t writes_starved = 2;
  std::int64_t fifo_batch = 16;
  // cfq
  std::int64_t quantum = 8;
  sim::Duration slice_sync = 100 * sim::kMillisecond;
  sim::Duration slice_async = 40 * sim::kMillisecond;
  sim::Duration slice_idle = 8 * sim::kMillisecond;
  sim::Duration fifo_expire_sync = 125 * sim::kMillisecond;
  sim::Duration fifo_expire_async = 250 * sim::kMillisecond;
  sim::Duration target_latency = 300 * sim::kMillisecond;

  // ext4 (data=ordered, barrier=1): bytes of descriptor + metadata blocks that a
  // jbd2 commit writes to the journal before its commit block; 0 = no journal model.
  sim::Bytes journal_commit_bytes = 16 * sim::kKiB;
  // ext4's barrier mount option: with barrier=0 (nobarrier) neither fsync nor
  // the jbd2 commit sends the device a cache flush (fs/ext4/fsync.c,
  // jbd2 JBD2_BARRIER): a volatile write cache then acknowledges the WAL.
  bool barrier = true;
  // ext4's commit= mount option: kjournald2 commits the running transaction
  // this long after its first handle (JBD2_DEFAULT_MAX_COMMIT_AGE, 5 s); 0 = only on request.
  sim::Duration commit_interval = 5 * sim::kSecond;
  // ext4_da_writepages holds a journal handle across mapping and submitting
  // each extent, overwrites included (3.2); 3.10's "avoid starting transaction
  // for pages not needing mapping" writes mapped pages without one.
  bool writepages_holds_handle = false;
  WritepagesScan writepages_scan = WritepagesScan::WriteCachePages;
  // data=ordered: a commit first writes and waits for the dirty pages of
  // every inode that got new blocks in the transaction.
  bool ordered_data = true;
  // fsync waits for a commit of its tid already requested by someone else
  // (jbd2_complete_transaction, 3.9); on 3.2 it waits only for a commit it
  // requested itself.
  bool fsync_waits_committing = true;
};

}  // namespace ckptsim::os
