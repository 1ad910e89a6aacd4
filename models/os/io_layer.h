// models/os/io_layer.h
//
// Which layer of Linux holds a task that waits inside a system call, named
// after the kernel code it sleeps in. The kernel model keeps one clock per
// task (OsTask::io_layers), like a finer task_delay_info: PostgreSQL's IO
// wait events say which call a backend is in; these say why it is still there.
//
// - balance_dirty_pages: throttled for dirtying too fast (mm/page-writeback.c);
// - request_slot: the queue's request pool is full (get_request_wait, blk-mq tags);
// - scheduler: the I/O it waits for is plugged or queued in the elevator;
// - device: that I/O (or a cache flush) is at the device;
// - journal: in a jbd2 commit of ext4, its own or one it waits for;
// - reclaim: no clean page to reuse, waiting for writeback to free one.
// Outside a system call, or inside one without sleeping, a task is in None.
#pragma once

#include <cstdint>

namespace ckptsim::os {

enum class IoLayer : std::uint8_t { None, BalanceDirtyPages, RequestSlot, Scheduler, Device, Journal, Reclaim, Count };

// The io_layers.csv column of a layer ("" for None).
constexpr const char* io_layer_name(IoLayer layer) {
  switch (layer) {
    case IoLayer::BalanceDirtyPages: return "balance_dirty_pages";
    case IoLayer::RequestSlot: return "request_slot";
    case IoLayer::Scheduler: return "scheduler";
    case IoLayer::Device: return "device";
    case IoLayer::Journal: return "journal";
    case IoLayer::Reclaim: return "reclaim";
    default: return "";
  }
}

}  // namespace ckptsim::os
