// models/os/plug.h
//
// A task's plug list: struct blk_plug and blk_start_plug (block/blk-core.c,
// 3.x). A task inside a plugged section (one writeback pass, an fsync's
// write phase, a readahead) keeps its new requests here; they enter their
// queue's elevator sorted by sector when it unplugs (blk_finish_plug), is
// about to sleep (blk_flush_plug_list from schedule()), or holds more than
// BLK_MAX_REQUEST_COUNT.
//
// Its requests may belong to several queues (md's reads go to the members);
// each queue's unplug takes its own (BlockQueue::unplug). Left out: the
// blk-mq plug's per-hardware-queue sorting, plug callbacks other than md's.
#pragma once

#include "models/os/bio.h"

namespace ckptsim::os {

inline constexpr int kMaxPlugged = 16;  // BLK_MAX_REQUEST_COUNT

struct Plug {
  RequestList requests;
  int count = 0;
  bool md_plugged = false;       // md's plug callback is on it (mddev_check_plugged)
  ~Plug() { requests.clear(); }  // a plug is always flushed before it ends
};

}  // namespace ckptsim::os
