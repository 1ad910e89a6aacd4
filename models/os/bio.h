// models/os/bio.h
//
// The two units of the Linux block layer (block/blk-core.c, include/linux/blk_types.h):
//
// - a bio: one contiguous run of sectors in one direction, from one task,
//   with its completion callback (bi_end_io). The page cache builds a bio
//   per run of contiguous pages of one file; devbench builds one per I/O.
// - a request: what the elevator sorts and the device executes; it starts
//   as one bio and grows by back / front merges up to max_sectors_kb. It
//   holds a slot of the request pool from allocation to completion.
//
// Sync class (section 3.2 of docs/reference/os-disk-model.md) decides the legacy pool and
// the CFQ queue: reads, fsync writes, sync_file_range on < 4.4 and journal
// writes are sync; flusher writeback is async.
//
// Left out: segments and bvecs (only sizes matter), discard, integrity, FUA
// on data (journal commit uses write + flush, as libata leaves FUA off).
#pragma once

#include <cstdint>

#include <boost/intrusive/list.hpp>
#include <boost/intrusive/set.hpp>

#include "models/disk/device.h"
#include "sim/time.h"

namespace ckptsim::os {

struct Bio;

// bi_end_io: told when every sector of the bio is done.
class BioOwner {
 public:
  virtual void bio_done(Bio& bio) = 0;
  // The bio's request went to the device (for the owner's own accounting).
  virtual void bio_dispatched(Bio& /*bio*/) {}

 protected:
  ~BioOwner() = default;
};

using ListHook = boost::intrusive::list_member_hook<boost::intrusive::link_mode<boost::intrusive::normal_link>>;
using SetHook = boost::intrusive::set_member_hook<boost::intrusive::link_mode<boost::intrusive::normal_link>>;

struct Bio {
  disk::Op op = disk::Op::Read;
  bool sync = false;
  // REQ_META: jbd2's journal blocks and commit record. blk-throttle charges
  // such a bio but never queues it (bio_issue_as_root_blkg).
  bool meta = false;
  // How many of the kernel's bios this one stands for, as blk-throttle counts
  // them: jbd2 submits one per journal block (submit_bh), carried here as one.
  std::int32_t nr_bios = 1;
  std::int64_t sector = 0;
  std::int64_t bytes = 0;
  int pid = 0;  // submitting task (CFQ queue)
  BioOwner* owner = nullptr;
  // The owner's own reference (the page cache: file and first block).
  std::int32_t file = -1;
  std::int64_t first_block = 0;
  ListHook hook;  // in its request's bio list, or the owner's free list

  std::int64_t end_sector() const { return sector + bytes / disk::kSectorBytes; }
};

using BioList = boost::intrusive::list<Bio, boost::intrusive::member_hook<Bio, ListHook, &Bio::hook>>;

enum class RequestState : std::uint8_t { Free, Plugged, Queued, Dispatched };

struct Request : disk::Command {
  bool sync = false;
  int pid = 0;
  RequestState state = RequestState::Free;
  sim::Time created = 0;    // diskstats: an I/O's time counts from here
  sim::Time fifo_time = 0;  // deadline / cfq: when this request expires
  BioList bios;
  SetHook merge_hook;  // the queue's merge index (by start sector), while queued
  SetHook sort_hook;   // the elevator's sector-sorted tree
  ListHook fifo_hook;  // the elevator's FIFO, a plug list, or the free list

  std::int64_t end() const { return end_sector(); }
};

struct RequestSector {
  using type = std::int64_t;
  type operator()(const Request& rq) const { return rq.sector; }
};

using MergeIndex =
    boost::intrusive::multiset<Request, boost::intrusive::member_hook<Request, SetHook, &Request::merge_hook>,
                               boost::intrusive::key_of_value<RequestSector>>;
using SortTree =
    boost::intrusive::multiset<Request, boost::intrusive::member_hook<Request, SetHook, &Request::sort_hook>,
                               boost::intrusive::key_of_value<RequestSector>>;
using RequestList =
    boost::intrusive::list<Request, boost::intrusive::member_hook<Request, ListHook, &Request::fifo_hook>>;

}  // namespace ckptsim::os
