// models/disk/ssd.h
//
// A flash SSD as a set of independent flash units (channels x dies) behind a
// controller with a DRAM write buffer (docs/reference/os-disk-model.md 5.1-5.4, reduced
// from MQSim / SimpleSSD).
//
// Every resource is a FIFO calendar (the time it is next free), reserved in
// the order commands reach it, so a command's completion time is known when
// it starts and no event is spent per stage:
//   controller: one command every 1 / host_iops_cap, plus host_overhead of latency;
//   read: per flash page touched, FTL lookup (ftl_overhead), tR on its unit,
//         then the page's bytes over the unit's channel; then the host link;
//   write: accepted into the buffer when it has room (complete after
//         write_overhead and the host link transfer), else it waits for
//         programs to free space. write_overhead is 0 in the shipped
//         presets; `ckptsim calibrate` sets it when a disk's writes take
//         longer than its reads at queue depth 1 (a virtual disk whose host
//         acknowledges a write later than it returns a read).
// The buffer drains in stripes of planes x flash_page, one multi-plane
// program per stripe on the next unit round-robin: channel transfer, then
// tPROG. Steady-state garbage collection is a slowdown of each program:
// with write amplification WA from over-provisioning
// (write_amplification.h), a stripe of user data costs WA programs,
// WA - 1 copy-back reads and WA / pages_per_block erases on its unit. Only
// the randomly written share of a stripe amplifies (sequential runs fill
// whole blocks that die together): WA_eff = 1 + (WA - 1) x random share.
// Reads queue behind programs and GC on their unit (no program suspend).
//
// Flush: with power-loss protection the buffer is safe and a flush is free;
// without it, the partial stripe is programmed and the flush completes after
// every issued program plus flush_overhead (mapping metadata). SATA flushes
// are not queued.
//
// Left out: the mapping table (data is striped statically by flash page, so
// a read goes to the unit of its address, not to where it was last
// programmed), reads hitting the write buffer, program/erase suspend, the
// fresh-drive phase and SLC caching, GC bursts (GC is a fluid slowdown).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "models/disk/completion_queue.h"
#include "models/disk/device.h"
#include "models/disk/device_config.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::disk {

class Ssd final : public Device {
 public:
  Ssd(sim::Simulator& sim, const DeviceConfig& config, std::uint64_t seed, std::string_view name);
  ~Ssd() override;

  const DeviceInfo& info() const override { return info_; }
  bool can_accept(Op op) const override;
  void submit(Command& command) override;
  int outstanding() const override { return outstanding_; }

  double write_amplification() const { return write_amplification_; }

 private:
  sim::Time controller_slot();  // when the controller has handled the command
  sim::Time link_transfer(sim::Time ready, std::int64_t bytes);
  sim::Duration bytes_time(std::int64_t bytes, sim::Bytes per_second) const;
  void read(Command& c);
  void accept_write(Command& c);
  void program_stripe(std::int64_t bytes, std::int64_t random_bytes, sim::Time ready);
  void program_done();  // the earliest pending program has ended
  void finished(Command& c);

  sim::Simulator& sim_;
  DeviceConfig config_;
  DeviceInfo info_;
  CompletionQueue completions_;
  sim::Timer programs_;
  double write_amplification_;
  std::int64_t units_;
  std::int64_t stripe_bytes_;
  sim::Duration controller_interval_;

  std::vector<sim::Time> unit_free_;
  std::vector<sim::Time> channel_free_;
  sim::Time controller_free_ = 0;
  sim::Time link_free_ = 0;

  // Write buffer: bytes held until their program ends; the stripe being filled.
  std::int64_t buffer_used_ = 0;
  std::int64_t stripe_fill_ = 0;
  std::int64_t stripe_random_ = 0;
  std::int64_t next_unit_ = 0;
  std::int64_t last_write_end_ = -1;
  sim::Time last_program_end_ = 0;
  std::vector<std::pair<sim::Time, std::int64_t>> pending_programs_;  // min-heap on end time
  CommandList buffer_waiters_;

  int outstanding_ = 0;
  bool blocking_flush_ = false;
};

}  // namespace ckptsim::disk
