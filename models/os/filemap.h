// models/os/filemap.h
//
// The buffered read and write paths of mm/filemap.c: filemap_read with the
// readahead window of mm/readahead.c and the read's completion (mpage_end_io,
// unlock_page), and generic_perform_write (allocate, stable-page wait,
// set_page_dirty, __mark_inode_dirty, balance_dirty_pages_ratelimited).
//
// Readahead: a read that continues where the previous read of the file
// ended (or starts at block 0) is sequential; its window starts at 4 x the
// request, grows x4 while small and x2 after, up to read_ahead_kb, and the
// blocks past the request are read in the same request without the reader
// waiting for them (the async part). A random read reads only its blocks.
// Left out: the PG_readahead marker (the next window is issued at the next
// miss, not ahead of it), read-CPU cost (a hit costs no simulated time).
#pragma once

#include <cstdint>

#include "models/os/backing_devices.h"
#include "models/os/bio_pool.h"
#include "models/os/dirty_throttle.h"
#include "models/os/file_system.h"
#include "models/os/jbd2.h"
#include "models/os/os_config.h"
#include "models/os/page_cache.h"
#include "sim/process.h"
#include "sim/simulator.h"

namespace ckptsim::os {

// What the kernel counts of its own system calls (the run's summary).
struct SyscallCounts {
  std::int64_t dirtied = 0, discarded = 0;  // blocks: dirtied by write(2), dropped dirty by truncate
  std::int64_t read_hits = 0, read_misses = 0, readahead_blocks = 0;
  std::int64_t peak_dirty = 0;  // blocks, Dirty + Writeback
  std::int64_t fsyncs = 0;
  sim::Duration fsync_time = 0, fsync_max = 0;
  std::int64_t sync_file_ranges = 0;
};

class Filemap final : private BioOwner {
 public:
  Filemap(sim::Simulator& sim, const OsConfig& config, PageCache& cache, BackingDevices& devices,
          DirtyThrottle& throttle, Jbd2Journal& journal, BioPool& bios, SyscallCounts& counts)
      : sim_(sim),
        config_(config),
        cache_(cache),
        devices_(devices),
        throttle_(throttle),
        journal_(journal),
        bios_(bios),
        counts_(counts) {}
  Filemap(const Filemap&) = delete;
  Filemap& operator=(const Filemap&) = delete;

  // read(2) of blocks [block, block + count) of the file, up to its size.
  sim::Task<> read(OsTask& task, FileId file, std::int64_t block, std::int64_t count);
  // write(2) of whole blocks [block, block + count): they become dirty.
  sim::Task<> write(OsTask& task, FileId file, std::int64_t block, std::int64_t count);

 private:
  void bio_done(Bio& bio) override;
  void bio_dispatched(Bio& bio) override;
  sim::Task<bool> allocate_block(OsTask* task, Inode& inode, std::int64_t b);
  void mark_inode_dirty(Inode& inode);

  sim::Simulator& sim_;
  const OsConfig& config_;
  PageCache& cache_;
  BackingDevices& devices_;
  DirtyThrottle& throttle_;
  Jbd2Journal& journal_;
  BioPool& bios_;
  SyscallCounts& counts_;
};

}  // namespace ckptsim::os
