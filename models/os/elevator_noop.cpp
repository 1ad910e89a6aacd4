// models/os/elevator_noop.cpp
//
// noop (legacy) / none (blk-mq): requests go to the device in the order they
// left their plugs. Merging is the queue's job (the generic merge hash of
// blk-core / blk-mq), so a plain FIFO is all that is left here. Also the
// elevator factory, by the names /sys/block/*/queue/scheduler shows.
#include <stdexcept>

#include "models/os/elevator.h"

namespace ckptsim::os {
namespace {

class Noop final : public Elevator {
 public:
  explicit Noop(const char* name) : name_(name) {}
  ~Noop() override { fifo_.clear(); }
  const char* name() const override { return name_; }
  void add(Request& rq) override {
    fifo_.push_back(rq);
    ++count_;
  }
  Request* dispatch() override {
    if (fifo_.empty()) return nullptr;
    Request& rq = fifo_.front();
    fifo_.pop_front();
    --count_;
    return &rq;
  }
  void merged_away(Request&, Request& gone) override {
    fifo_.erase(fifo_.iterator_to(gone));
    --count_;
  }
  void front_merged(Request&) override {}
  bool allow_merge(const Request&, const Bio&) const override { return true; }
  void completed(Request&) override {}
  std::size_t queued() const override { return count_; }

 private:
  const char* name_;
  RequestList fifo_;
  std::size_t count_ = 0;
};

}  // namespace

std::unique_ptr<Elevator> make_noop(const char* name) { return std::make_unique<Noop>(name); }

bool elevator_exists(BlockLayer block_layer, Scheduler scheduler) {
  if (block_layer == BlockLayer::Legacy) {
    return scheduler == Scheduler::Noop || scheduler == Scheduler::Deadline || scheduler == Scheduler::Cfq;
  }
  return scheduler == Scheduler::None || scheduler == Scheduler::MqDeadline;
}

Scheduler default_elevator(BlockLayer block_layer, bool rotational) {
  if (block_layer == BlockLayer::Legacy)
    return Scheduler::Cfq;  // CONFIG_DEFAULT_IOSCHED on Ubuntu 12.04 and most 3.x kernels
  return rotational ? Scheduler::MqDeadline : Scheduler::None;
}

std::unique_ptr<Elevator> make_elevator(Scheduler scheduler, const OsConfig& config, ElevatorHost& host) {
  if (!elevator_exists(config.block_layer, scheduler)) {
    throw std::invalid_argument("scheduler \"" + std::string(sim::enum_name(kSchedulerNames, scheduler)) +
                                "\" is not offered by the " +
                                std::string(sim::enum_name(kBlockLayerNames, config.block_layer)) +
                                " block layer (legacy: noop, deadline, cfq; blk-mq: none, mq-deadline)");
  }
  switch (scheduler) {
    case Scheduler::Noop: return make_noop("noop");
    case Scheduler::None: return make_noop("none");
    case Scheduler::Deadline: return make_deadline("deadline", config, host);
    case Scheduler::MqDeadline: return make_deadline("mq-deadline", config, host);
    case Scheduler::Cfq:
    case Scheduler::Default: break;
  }
  return make_cfq(config, host);
}

}  // namespace ckptsim::os
