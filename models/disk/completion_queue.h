// models/disk/completion_queue.h
//
// The interrupt side of a device: commands whose completion time is already
// known (a cache hit, a write accepted into a buffer, a flash read whose unit
// and channel are reserved), kept in order of that time and handed back one
// by one from a single timer.
//
// Commands are linked through their device_hook, so queueing costs no
// allocation. Equal times complete in the order they were queued, which keeps
// runs deterministic.
#pragma once

#include <functional>
#include <utility>

#include <boost/intrusive/list.hpp>

#include "models/disk/device.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::disk {

using CommandList =
    boost::intrusive::list<Command, boost::intrusive::member_hook<Command, Command::Hook, &Command::device_hook>>;

class CompletionQueue {
 public:
  // `on_complete` runs for each command at its time (the device's own
  // bookkeeping, then the owner's callback).
  CompletionQueue(sim::Simulator& sim, std::function<void(Command&)> on_complete)
      : timer_(sim, [this] { fire(); }), sim_(sim), on_complete_(std::move(on_complete)) {}
  CompletionQueue(const CompletionQueue&) = delete;
  CompletionQueue& operator=(const CompletionQueue&) = delete;
  ~CompletionQueue() { queue_.clear(); }

  // Completes `command` at `when` (not before now). Searching from the back
  // is cheap because completion times mostly arrive in increasing order.
  void complete_at(Command& command, sim::Time when) {
    command.device_end = when < sim_.now() ? sim_.now() : when;
    auto it = queue_.end();
    while (it != queue_.begin() && std::prev(it)->device_end > command.device_end) --it;
    queue_.insert(it, command);
    if (&queue_.front() == &command) timer_.schedule_at(command.device_end);
  }
  bool empty() const { return queue_.empty(); }
  std::size_t size() const { return queue_.size(); }

 private:
  void fire() {
    // One command per firing: its callback may queue more at the same time.
    Command& command = queue_.front();
    queue_.pop_front();
    if (!queue_.empty()) timer_.schedule_at(queue_.front().device_end);
    on_complete_(command);
  }

  sim::Timer timer_;
  sim::Simulator& sim_;
  std::function<void(Command&)> on_complete_;
  CommandList queue_;
};

}  // namespace ckptsim::disk
