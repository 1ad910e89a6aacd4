// tests/os/test_blk_throttle.cpp
//
// blk-throttle over a fast fake device (blk_throttle.h): the bursts of
// limit/10 bios per 100 ms slice, the FIFO, what is charged (REQ_META bios,
// empty flushes), the bytes limit, how little unused budget carries over,
// the per-direction limits, and what system.csv reads of it.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "fake_device.h"
#include "models/os/blk_throttle.h"
#include "models/os/block_queue.h"
#include "sim/process.h"

using namespace ckptsim;
using namespace ckptsim::os;
using ckptsim::os::testing::FakeDevice;
using ckptsim::os::testing::FakeDeviceConfig;

namespace {

struct Recorder final : BioOwner {
  sim::Simulator* sim = nullptr;
  std::vector<std::int64_t> order;  // ids in completion order
  std::vector<sim::Time> done;      // by id
  void bio_done(Bio& bio) override {
    order.push_back(bio.first_block);
    done[static_cast<std::size_t>(bio.first_block)] = sim->now();
  }
  int done_before(sim::Time t) const {
    return static_cast<int>(std::count_if(done.begin(), done.end(), [t](sim::Time at) { return at >= 0 && at < t; }));
  }
};

// A throttle over a blk-mq queue without an elevator over a 32-deep device
// that takes 100 us a command: the device is never what limits.
struct Rig {
  sim::Simulator sim;
  FakeDevice dev;
  OsConfig config;
  std::unique_ptr<BlkThrottle> throttle;
  Recorder rec;
  std::vector<Bio> bios;

  Rig(BlkThrottleConfig limits, int count, disk::Op op = disk::Op::Write, std::int64_t bytes = 8192,
      FakeDeviceConfig device = {.queue_depth = 32, .rotational = false})
      : dev(sim, device) {
    config.scheduler = Scheduler::None;
    throttle = std::make_unique<BlkThrottle>(sim, limits,
                                             std::make_unique<BlockQueue>(sim, config, dev, config.scheduler, "loop0"));
    rec.sim = &sim;
    bios.resize(static_cast<std::size_t>(count));
    rec.done.assign(bios.size(), -1);
    for (int i = 0; i < count; ++i) {
      Bio& b = bios[static_cast<std::size_t>(i)];
      b.op = op;
      b.sector = 100000LL * i;  // never contiguous: nothing merges
      b.bytes = bytes;
      b.owner = &rec;
      b.first_block = i;
      b.pid = 1;
    }
  }
  // Bios [from, to) submitted one after another at `at`.
  void submit_at(sim::Time at, int from, int to) { sim.spawn(submitter(*this, at, from, to)); }
  static sim::Process submitter(Rig& r, sim::Time when, int first, int end) {
    co_await r.sim.sleep_until(when);
    for (int i = first; i < end; ++i) co_await r.throttle->submit_bio(r.bios[static_cast<std::size_t>(i)], nullptr);
  }
};

constexpr sim::Time ms(std::int64_t n) { return n * sim::kMillisecond; }

}  // namespace

TEST_CASE("a backlog at 300 write IOPS leaves in bursts of 30 bios every 100 ms slice") {
  Rig r(BlkThrottleConfig{.write_iops = 300}, 300);
  r.submit_at(0, 0, 300);
  r.sim.run_until(ms(1));
  // The submitter never sleeps in the throttle: all 300 are in by now, 270 queued.
  CHECK(r.throttle->stats_now().queued == 270);
  r.sim.run();
  CHECK(r.rec.done_before(ms(99)) == 30);
  CHECK(r.rec.done_before(ms(199)) == 60);
  CHECK(r.rec.done_before(ms(499)) == 150);
  CHECK(r.rec.done_before(ms(899)) == 270);
  const sim::Time last = *std::max_element(r.rec.done.begin(), r.rec.done.end());
  CHECK(last >= ms(900));
  CHECK(last < ms(910));
  const BlkThrottleStats s = r.throttle->stats_now();
  CHECK(s.queued == 0);
  CHECK(s.charged_ios == 300);
  CHECK(s.charged_bytes == 300 * 8192);
  // Batch k (k = 1..9) of 30 waited k x 100 ms: 30 x 4.5 s of bio-time.
  CHECK(s.waited == 30 * (ms(100) * 45));
}

TEST_CASE("throttled bios leave in the order they came (one FIFO per direction)") {
  Rig r(BlkThrottleConfig{.write_iops = 100}, 50, disk::Op::Write, 8192, FakeDeviceConfig{.queue_depth = 1});
  r.submit_at(0, 0, 50);
  r.sim.run();
  REQUIRE(r.rec.order.size() == 50);
  CHECK(std::is_sorted(r.rec.order.begin(), r.rec.order.end()));
}

TEST_CASE("a REQ_META bio (jbd2) is charged but never held: the bios behind it pay") {
  Rig r(BlkThrottleConfig{.write_iops = 300}, 32);
  r.submit_at(0, 0, 30);  // the first slice's budget, all passed
  r.bios[30].meta = true;
  r.bios[30].nr_bios = 30;  // a 120 kB journal write: 30 submit_bh
  r.submit_at(ms(1), 30, 32);
  r.sim.run();
  CHECK(r.rec.done[30] < ms(10));  // went down at once, over budget (behind the 30 the device serves first)
  // Without it bio 31 would leave at the second slice (100 ms); the debt
  // of 30 charged IOs pushes it to the third.
  CHECK(r.rec.done[31] >= ms(200));
  CHECK(r.rec.done[31] < ms(210));
  CHECK(r.throttle->stats_now().charged_ios == 30 + 30 + 1);
}

TEST_CASE("an empty cache flush is one write IO and waits its turn in the FIFO") {
  Rig r(BlkThrottleConfig{.write_iops = 300}, 30);
  r.submit_at(0, 0, 30);
  sim::Time flushed = -1;
  r.sim.spawn([](Rig& rig, sim::Time& at) -> sim::Process {
    co_await rig.sim.sleep_until(ms(1));
    co_await rig.throttle->flush_cache();
    at = rig.sim.now();
  }(r, flushed));
  r.sim.run();
  CHECK(flushed >= ms(100));
  CHECK(flushed < ms(110));
  CHECK(r.throttle->stats_now().charged_ios == 31);
}

TEST_CASE("a bytes limit: 2 MiB in 256 kB bios at 1 MiB/s takes about 2 s") {
  Rig r(BlkThrottleConfig{.write_bps = sim::kMiB}, 8, disk::Op::Write, 256 * sim::kKiB);
  r.submit_at(0, 0, 8);
  r.sim.run();
  const sim::Time last = *std::max_element(r.rec.done.begin(), r.rec.done.end());
  CHECK(last >= ms(1700));
  CHECK(last <= ms(2200));
  // Each bio waits for its bytes: they leave one at a time, not all at the end.
  CHECK(r.rec.done_before(ms(1000)) >= 3);
  CHECK(r.rec.done_before(ms(1000)) <= 5);
  CHECK(r.throttle->stats_now().charged_bytes == 2 * sim::kMiB);
}

TEST_CASE("unused budget does not carry over an idle second: the next burst is one slice's") {
  Rig r(BlkThrottleConfig{.write_iops = 300}, 90);
  r.submit_at(0, 0, 30);
  r.submit_at(ms(2000), 30, 90);
  r.sim.run();
  CHECK(r.rec.done_before(ms(2050)) == 60);  // 30 at 0, 30 at 2 s
  CHECK(r.rec.done_before(ms(2099)) == 60);
  CHECK(r.rec.done_before(ms(2150)) == 90);
}

TEST_CASE("each direction has its own limit: reads pass while writes queue") {
  Rig r(BlkThrottleConfig{.write_iops = 100}, 40);
  for (int i = 20; i < 40; ++i) r.bios[static_cast<std::size_t>(i)].op = disk::Op::Read;
  r.submit_at(0, 0, 20);  // 10 pass, 10 wait for the next slice
  r.submit_at(ms(1), 20, 40);
  r.sim.run();
  for (int i = 20; i < 40; ++i) CHECK(r.rec.done[static_cast<std::size_t>(i)] < ms(10));
  CHECK(r.rec.done_before(ms(99)) == 30);
  CHECK(r.throttle->stats_now().charged_ios == 20);  // a direction without a limit is not charged
}

TEST_CASE("without a limit nothing is queued and nothing waits") {
  Rig r(BlkThrottleConfig{}, 200);
  r.submit_at(0, 0, 200);
  r.sim.run();
  CHECK(r.rec.done_before(ms(50)) == 200);
  CHECK(r.throttle->stats_now().waited == 0);
}
