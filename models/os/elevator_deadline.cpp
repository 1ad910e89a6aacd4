// models/os/elevator_deadline.cpp
//
// The deadline elevator (block/deadline-iosched.c, 2.6-4.x) and mq-deadline
// (block/mq-deadline.c), which share one algorithm: per direction a
// sector-sorted tree and a FIFO whose entries expire read_expire / write_expire
// after insertion. Dispatch continues a batch of up to fifo_batch requests in
// ascending sector order; a new batch picks reads unless writes have been
// passed over writes_starved times, and starts from the FIFO head when that
// has expired (or the sweep has run off the end), else where the sweep was.
//
// Expiry only reorders: it does not pre-empt a running batch, and with NCQ
// the device still holds up to its depth of earlier requests.
//
// Left out: mq-deadline's async_depth (5.14+), I/O priorities, zoned locking.
#include "models/os/elevator.h"

namespace ckptsim::os {
namespace {

class Deadline final : public Elevator {
 public:
  Deadline(const char* name, const OsConfig& config, ElevatorHost& host)
      : name_(name),
        host_(host),
        expire_{config.read_expire, config.write_expire},
        writes_starved_(config.writes_starved),
        fifo_batch_(config.fifo_batch) {}
  ~Deadline() override {
    for (int dir = 0; dir < 2; ++dir) {
      sorted_[dir].clear();
      fifo_[dir].clear();
    }
  }

  const char* name() const override { return name_; }

  void add(Request& rq) override {
    const int dir = direction(rq);
    sorted_[dir].insert(rq);
    rq.fifo_time = host_.simulator().now() + expire_[dir];
    fifo_[dir].push_back(rq);
    ++count_;
  }

  Request* dispatch() override {
    // Continue the current batch.
    Request* rq = next_[kWrite] != nullptr ? next_[kWrite] : next_[kRead];
    if (rq != nullptr && batching_ < fifo_batch_) {
      ++batching_;
      take(*rq);
      return rq;
    }
    const bool reads = !fifo_[kRead].empty();
    const bool writes = !fifo_[kWrite].empty();
    int dir;
    if (reads && !(writes && starved_++ >= writes_starved_)) {
      dir = kRead;
    } else if (writes) {
      starved_ = 0;
      dir = kWrite;
    } else {
      return nullptr;
    }
    // Restart the sweep at the oldest request when it has expired, or when
    // the sweep in this direction has run out.
    if (expired(dir) || next_[dir] == nullptr) {
      rq = &fifo_[dir].front();
    } else {
      rq = next_[dir];
    }
    batching_ = 1;
    take(*rq);
    return rq;
  }

  void merged_away(Request&, Request& gone) override {
    const int dir = direction(gone);
    if (next_[dir] == &gone) next_[dir] = successor(gone);
    sorted_[dir].erase(sorted_[dir].iterator_to(gone));
    fifo_[dir].erase(fifo_[dir].iterator_to(gone));
    --count_;
  }

  void front_merged(Request& rq) override {
    auto& tree = sorted_[direction(rq)];
    tree.erase(tree.iterator_to(rq));
    tree.insert(rq);
  }

  bool allow_merge(const Request&, const Bio&) const override { return true; }
  void completed(Request&) override {}
  std::size_t queued() const override { return count_; }

 private:
  static constexpr int kRead = 0;
  static constexpr int kWrite = 1;
  static int direction(const Request& rq) { return rq.op == disk::Op::Read ? kRead : kWrite; }

  bool expired(int dir) const { return !fifo_[dir].empty() && fifo_[dir].front().fifo_time <= host_.simulator().now(); }
  Request* successor(Request& rq) {
    auto& tree = sorted_[direction(rq)];
    auto it = std::next(tree.iterator_to(rq));
    return it == tree.end() ? nullptr : &*it;
  }
  // deadline_move_request: the sweep continues after rq in its direction only.
  void take(Request& rq) {
    const int dir = direction(rq);
    next_[kRead] = nullptr;
    next_[kWrite] = nullptr;
    next_[dir] = successor(rq);
    sorted_[dir].erase(sorted_[dir].iterator_to(rq));
    fifo_[dir].erase(fifo_[dir].iterator_to(rq));
    --count_;
  }

  const char* name_;
  ElevatorHost& host_;
  sim::Duration expire_[2];
  std::int64_t writes_starved_;
  std::int64_t fifo_batch_;
  SortTree sorted_[2];
  RequestList fifo_[2];
  Request* next_[2] = {nullptr, nullptr};
  std::int64_t batching_ = 0;
  std::int64_t starved_ = 0;
  std::size_t count_ = 0;
};

}  // namespace

std::unique_ptr<Elevator> make_deadline(const char* name, const OsConfig& config, ElevatorHost& host) {
  return std::make_unique<Deadline>(name, config, host);
}

}  // namespace ckptsim::os
