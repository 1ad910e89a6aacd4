// models/os/drain_bench.h
//
// How fast a device drains a kernel writeback sweep over sparse dirty pages:
// what `ckptsim devbench` reports as writes/s per density, and what the
// drive destage tests measure.
//
// One 8 kB page in every 1/density blocks of a span is dirty. A flusher
// writes them as write_cache_pages does on a file's dirty pages: in
// ascending block order (or, for comparison, the same pages in a random
// order), as async bios inside a plug of one writeback chunk
// (MAX_WRITEBACK_PAGES, 1024 pages), sleeping in get_request when the async
// pool is full, never waiting for a write: the queue depth is whatever the
// request pool and the device's queue allow, as in buffered writeback. When
// every write has completed it issues a cache flush, as the fsync that ends
// a checkpoint would, so that the rate counts writes on the platters rather
// than in a volatile drive cache.
//
// Left out: the page cache itself (the pages are given), writeback's
// per-inode chunking across files, dirty throttling.
#pragma once

#include <cstdint>
#include <string>

#include "models/os/block_queue.h"
#include "models/os/file_system.h"
#include "sim/simulator.h"

namespace ckptsim::os {

struct DrainJob {
  std::string name;
  std::int64_t stride = 7;          // one dirty block in every `stride` (density 1/stride)
  bool ascending = true;            // false: the same blocks in a random order
  sim::Bytes span = 2 * sim::kGiB;  // bytes from sector 0
  int chunk = 1024;                 // bios per plugged writeback chunk
};

struct DrainResult {
  std::string name;
  std::int64_t writes = 0;
  double seconds = 0;  // first submission to the end of the cache flush
  double writes_per_s = 0;
};

// Runs `job` on `queue` from the simulator's current time; returns when its
// cache flush has completed.
// Through `throttle` (blk-throttle above that queue) when given.
DrainResult run_drain_job(sim::Simulator& sim, BlockQueue& queue, const DrainJob& job, std::uint64_t seed,
                          BlockDevice* throttle = nullptr);

}  // namespace ckptsim::os
