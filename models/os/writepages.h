// models/os/writepages.h
//
// Starting writeback of a file's dirty pages, and its completion:
// write_cache_pages (mm/page-writeback.c) as ext4_da_writepages (3.2) runs
// it, and end_page_writeback (mm/filemap.c) when the bio completes.
//
// write_pages scans the file's dirty blocks in ascending order from a start
// index (cyclic: from writeback_index, wrapping once), turns each into a
// page under writeback, and builds bios of contiguous blocks, all under the
// caller's plug. os.writepages_scan "ext4-da" is ext4_da_writepages of
// 2.6.31-3.10 (fs/ext4/inode.c, read in 3.2): a loop of write_cache_pages_da
// calls, one extent each, every call looking dirty pages up again from the
// pass's start (so pages dirtied behind the cursor are written next, out of
// order); the wrap to block 0 only when the pass has written nothing
// (`!io_done && !cycled`); writeback_index set to the last call's
// done_index, so a pass that reached the end of the file starts the next
// one where it started itself; nr_to_write raised to the delayed blocks
// dirty in a row (ext4_num_dirty_pages). WB_SYNC_NONE skips blocks already under writeback;
// WB_SYNC_ALL waits for them, and writes only the blocks dirty when it
// started (the tag pass: a bound on the count and one pass over the range).
// The flushers (bdi_writeback.h), fsync and friends, and the journal's
// ordered data all come here.
//
// On ext4 each run of contiguous blocks is one extent, mapped (delayed
// blocks allocated) and submitted under its own journal handle when
// writepages_holds_handle, or only when it allocates; a full request pool
// then keeps the handle open and a commit T_LOCKED. The commit's own
// ordered writeback (generic_writepages) takes no handle and cannot
// allocate, so it skips delayed blocks.
//
// Left out: page locks during the scan, redirtying by the filesystem, the
// journal handle per extent (ext4-da starts one per write_cache_pages_da call;
// here one per bio), the CPU time of the rescans.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "models/os/backing_devices.h"
#include "models/os/bdi_writeback.h"
#include "models/os/bio_pool.h"
#include "models/os/jbd2.h"
#include "models/os/page_cache.h"

namespace ckptsim::os {

// Whether block `b` of the bio's file continues `bio` within the queue's
// request size limit (bio_add_page), so it rides in the same bio.
inline bool extends(const Bio* bio, std::int64_t b, const BlockDevice& q) {
  return bio != nullptr && bio->first_block + bio->bytes / kBlockBytes == b &&
         bio->bytes / 512 + kSectorsPerBlock <= q.max_sectors();
}

// Whether writes to this inode go through the journal (the data volume's).
inline bool journaled(const Jbd2Journal& journal, const Inode& inode) { return journal.enabled() && inode.bdi == 0; }

class Writepages final : public WritebackHost, public OrderedDataWriter, private BioOwner {
 public:
  // `tasks` by pid - 1 (whose clocks the waits run on).
  Writepages(const OsConfig& config, PageCache& cache, Jbd2Journal& journal, BioPool& bios, BackingDevices& devices,
             std::deque<OsTask>& tasks)
      : config_(config), cache_(cache), journal_(journal), bios_(bios), devices_(devices), tasks_(tasks) {}
  Writepages(const Writepages&) = delete;
  Writepages& operator=(const Writepages&) = delete;

  // write_cache_pages: start writeback of the inode's dirty blocks as `wbc` says; returns blocks started.
  sim::Task<std::int64_t> write_pages(Inode& inode, const WritebackControl& wbc, Plug& plug) override;
  // filemap_fdatawrite_range: write_pages under a plug of its own, flushed at the end.
  sim::Task<std::int64_t> write_range(Inode& inode, const WritebackControl& wbc);
  // OrderedDataWriter: the commit's ordered data.
  sim::Task<> submit_data(OsTask& task, FileId file) override;
  sim::Task<> wait_data(OsTask& task, FileId file) override;

  // Blocks whose writeback was started for `reason`, all of them, and those completed.
  std::int64_t blocks_started(WbReason reason) const { return started_[static_cast<std::size_t>(reason)]; }
  std::int64_t blocks_started() const;
  std::int64_t blocks_completed() const { return completed_; }

 private:
  struct Pass;
  Pass start_pass(Inode& inode, const WritebackControl& wbc, Plug& plug);
  static std::int64_t num_dirty_delayed(const Inode& inode, std::int64_t from);
  static bool next_dirty_block(Pass& pass, std::int64_t& b);
  sim::Task<> submit(Pass& pass);
  sim::Task<> end_extent(Pass& pass);
  static void update_writeback_index(Pass& pass);
  sim::Task<> wait_on_page_writeback(Pass& pass, std::int64_t b);
  void map_delayed_block(Inode& inode, std::int64_t b);
  void write_block(Pass& pass, std::int64_t b, bool joins);
  BlockDevice& queue(const Inode& inode) { return devices_.of(inode).queue(); }
  void bio_done(Bio& bio) override;
  void bio_dispatched(Bio& bio) override;

  const OsConfig& config_;
  PageCache& cache_;
  Jbd2Journal& journal_;
  BioPool& bios_;
  BackingDevices& devices_;
  std::deque<OsTask>& tasks_;
  std::array<std::int64_t, static_cast<std::size_t>(WbReason::Count)> started_{};
  std::int64_t completed_ = 0;
};

}  // namespace ckptsim::os
