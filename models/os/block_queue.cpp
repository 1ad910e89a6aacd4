// models/os/block_queue.cpp
//
// Request life cycle of one block device: bio -> plug or merge -> request
// (pool slot) -> elevator -> device -> completion (bios ended, slot freed,
// sleepers woken, diskstats). See block_queue.h for the parts it composes.
#include "models/os/block_queue.h"

#include <algorithm>

namespace ckptsim::os {

namespace {

Scheduler chosen_elevator(const OsConfig& config, const disk::DeviceInfo& info, Scheduler scheduler) {
  return scheduler == Scheduler::Default ? default_elevator(config.block_layer, info.rotational) : scheduler;
}

int queue_nr_requests(const OsConfig& config, const disk::DeviceInfo& info, Scheduler elevator) {
  if (config.nr_requests > 0) return static_cast<int>(config.nr_requests);
  if (config.block_layer == BlockLayer::Legacy) return 128;               // BLKDEV_MAX_RQ
  if (elevator == Scheduler::None) return std::max(info.queue_depth, 1);  // the hardware tags
  return 2 * std::min(std::max(info.queue_depth, 1), 128);                // scheduler tags
}

}  // namespace

BlockQueue::BlockQueue(sim::Simulator& sim, const OsConfig& config, disk::Device& device, Scheduler scheduler,
                       std::string name)
    : sim_(sim),
      device_(device),
      name_(std::move(name)),
      elevator_(make_elevator(chosen_elevator(config, device.info(), scheduler), config, *this)),
      pool_(sim, config.block_layer == BlockLayer::Legacy,
            queue_nr_requests(config, device.info(), chosen_elevator(config, device.info(), scheduler)), *this),
      merge_(sim, std::max<std::int64_t>(config.max_sectors_kb / disk::kSectorBytes, 16), *elevator_, pool_,
             accounting_),
      flushes_(sim, *this, device.info().volatile_cache) {}

BlockQueue::~BlockQueue() { elevator_.reset(); }

// ---- submission ----

void BlockQueue::init_request(Request& rq, Bio& bio) {
  rq.op = bio.op;
  rq.sector = bio.sector;
  rq.bytes = bio.bytes;
  rq.fua = false;
  rq.sync = bio.sync;
  rq.pid = bio.pid;
  rq.created = sim_.now();
  rq.fifo_time = 0;
  rq.bios.push_back(bio);
}

sim::Task<> BlockQueue::submit_bio(Bio& bio, Plug* plug, sim::StateClock<IoLayer>* layers) {
  if (try_submit(bio, plug)) co_return;
  if (plug != nullptr) unplug(*plug);
  const sim::StateScope<IoLayer> waiting(layers, IoLayer::RequestSlot);
  submit_into(co_await get_request(bio.sync), bio, plug);
}

bool BlockQueue::try_submit(Bio& bio, Plug* plug) {
  if (plug != nullptr && merge_.into_plug(bio, *plug)) return true;
  if (merge_.into_queue(bio)) {
    run_queue();
    return true;
  }
  Request* rq = pool_.alloc(bio.sync);
  if (rq == nullptr) return false;
  submit_into(*rq, bio, plug);
  return true;
}

void BlockQueue::submit_into(Request& rq, Bio& bio, Plug* plug) {
  init_request(rq, bio);
  if (plug != nullptr) {
    rq.state = RequestState::Plugged;
    plug->requests.push_back(rq);
    if (++plug->count > kMaxPlugged) unplug(*plug);
    return;
  }
  insert(rq);
  run_queue();
}

void BlockQueue::unplug(Plug& plug) {
  if (plug.requests.empty()) return;
  // blk_flush_plug_list: sorted by sector, each tried for a merge with the queue.
  plug.requests.sort([](const Request& a, const Request& b) { return a.sector < b.sector; });
  for (auto it = plug.requests.begin(); it != plug.requests.end();) {
    Request& rq = *it;
    if (rq.owner != this) {
      ++it;
      continue;
    }
    it = plug.requests.erase(it);
    --plug.count;
    insert(rq);
  }
  if (plug.requests.empty()) plug.count = 0;
  run_queue();
}

// elv_insert: counted in flight from here, then offered to its neighbours for a merge.
void BlockQueue::insert(Request& rq) {
  rq.state = RequestState::Queued;
  accounting_.started(sim_.now());
  merge_.add(rq);
  elevator_->add(rq);
  merge_.merge_neighbours(rq);
}

sim::Task<> BlockQueue::flush_cache() {
  if (!flushes_.needed()) co_return;
  sim::Condition& covered = flushes_.request();
  run_queue();  // may issue it now; a device completes a command from an event, never inside submit()
  co_await covered.wait();
}

// ---- dispatch and completion ----

void BlockQueue::run_queue() {
  if (running_) return;
  running_ = true;
  const bool queued_flush = device_.info().queued_flush;
  for (;;) {
    if (flushes_.pending()) {
      if (device_.can_accept(disk::Op::Flush)) {
        device_.submit(flushes_.issue(sim_.now()));
      } else if (!queued_flush) {
        break;  // a non-queued flush waits for the device queue to drain; nothing overtakes it
      }
    }
    if (flushes_.in_flight() && !queued_flush) break;
    if (elevator_->queued() == 0 || !device_.can_accept(disk::Op::Write)) break;
    Request* rq = elevator_->dispatch();
    if (rq == nullptr) break;
    merge_.remove(*rq);
    rq->state = RequestState::Dispatched;
    for (Bio& bio : rq->bios) bio.owner->bio_dispatched(bio);
    device_.submit(*rq);
    peak_device_outstanding_ = std::max(peak_device_outstanding_, device_.outstanding());
  }
  running_ = false;
}

void BlockQueue::command_completed(disk::Command& command) {
  const sim::Time now = sim_.now();
  if (flushes_.is_flush(command)) {
    accounting_.flush_done(flushes_.completed(now));
    run_queue();
    return;
  }
  Request& rq = static_cast<Request&>(command);
  accounting_.done(rq, now);
  elevator_->completed(rq);
  while (!rq.bios.empty()) {
    Bio& bio = rq.bios.front();
    rq.bios.pop_front();
    bio.owner->bio_done(bio);
  }
  pool_.put(rq);
  run_queue();
}

}  // namespace ckptsim::os
