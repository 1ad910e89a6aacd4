// models/os/elevator.h
//
// The I/O scheduler interface of the block layer (struct elevator_ops in
// 3.x, elevator_mq_ops on blk-mq): requests are added as they leave a plug,
// and the queue pulls the next one whenever the device has a free slot. An
// elevator may hold requests back (CFQ idling, its async depth limit); it
// then asks its host to run the queue again later.
//
// Elevators, chosen by name as in /sys/block/*/queue/scheduler:
//   noop / none           FIFO (merging happens in the queue, not here)
//   deadline / mq-deadline sector-sorted one-way sweeps with per-direction FIFO expiry
//   cfq                   CFQ-lite: per-process sync queues, one async queue, time slices
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "models/os/bio.h"
#include "models/os/os_config.h"
#include "sim/simulator.h"

namespace ckptsim::os {

// What an elevator may ask of the queue that owns it.
class ElevatorHost {
 public:
  virtual sim::Simulator& simulator() = 0;
  // Run the dispatch loop again (an idle timer fired).
  virtual void kick() = 0;

 protected:
  ~ElevatorHost() = default;
};

class Elevator {
 public:
  virtual ~Elevator() = default;
  virtual const char* name() const = 0;
  // elv_add_request: a new request, no longer mergeable in a plug.
  virtual void add(Request& rq) = 0;
  // The next request for the device, removed from the elevator; nullptr when
  // empty or holding back.
  virtual Request* dispatch() = 0;
  // `gone` was merged into `kept` and leaves the elevator.
  virtual void merged_away(Request& kept, Request& gone) = 0;
  // rq's start sector moved down (a front merge): re-sort it.
  virtual void front_merged(Request& rq) = 0;
  // elv_bio_merge_ok: may this bio join this queued request?
  virtual bool allow_merge(const Request& rq, const Bio& bio) const = 0;
  // A dispatched request completed.
  virtual void completed(Request& rq) = 0;
  virtual std::size_t queued() const = 0;
};

// True when the block layer offers that elevator (Default is none: resolve it first).
bool elevator_exists(BlockLayer block_layer, Scheduler scheduler);
// The kernel's default elevator for a device.
Scheduler default_elevator(BlockLayer block_layer, bool rotational);
// Throws std::invalid_argument for an elevator the block layer does not offer.
std::unique_ptr<Elevator> make_elevator(Scheduler scheduler, const OsConfig& config, ElevatorHost& host);

std::unique_ptr<Elevator> make_noop(const char* name);
std::unique_ptr<Elevator> make_deadline(const char* name, const OsConfig& config, ElevatorHost& host);
std::unique_ptr<Elevator> make_cfq(const OsConfig& config, ElevatorHost& host);

}  // namespace ckptsim::os
