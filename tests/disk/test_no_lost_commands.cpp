// tests/disk/test_no_lost_commands.cpp
//
// Every device, under a mixed load of reads, writes (some FUA) and flushes
// submitted whenever it accepts them: each command completes exactly once,
// never before it was submitted, the device ends empty, and a second run
// with the same seed completes everything at the same times in the same order.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "models/disk/make_device.h"
#include "sim/random.h"
#include "sim/timer.h"
#include "tests/disk/owners.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

struct Completion {
  int index;
  sim::Time at;
  bool operator==(const Completion&) const = default;
};

class MixedLoad final : public CommandOwner {
 public:
  MixedLoad(sim::Simulator& sim, Device& device, int commands)
      : times_completed_(static_cast<std::size_t>(commands), 0),
        sim_(sim),
        device_(device),
        commands_(static_cast<std::size_t>(commands)),
        random_(11, "mixed-load"),
        tick_(sim, [this] { submit_some(); }) {
    const std::int64_t sectors = device.info().capacity_bytes / kSectorBytes;
    for (Command& c : commands_) {
      const std::int64_t kind = random_.uniform_int(0, 99);
      c.op = kind < 45 ? Op::Read : kind < 95 ? Op::Write : Op::Flush;
      c.fua = c.op == Op::Write && kind >= 90;
      c.bytes = c.op == Op::Flush ? 0 : 8192 * random_.uniform_int(1, 16);
      // Half nearby (merging, read-ahead, cache hits), half anywhere.
      c.sector = random_.uniform_int(0, 1) ? random_.uniform_int(0, 4096) * 16
                                           : random_.uniform_int(0, sectors / 16 - 64) * 16;
      c.owner = this;
    }
  }
  void start() { submit_some(); }
  std::vector<Completion> completions;
  std::vector<int> times_completed_;
  bool early = false;

 private:
  void submit_some() {
    // A burst of what the device takes now, then a pause.
    const std::int64_t burst = random_.uniform_int(1, 40);
    for (std::int64_t i = 0; i < burst && next_ < commands_.size(); ++i) {
      Command& c = commands_[next_];
      if (!device_.can_accept(c.op)) break;
      c.device_end = -1;
      device_.submit(c);
      ++next_;
    }
    if (next_ < commands_.size()) tick_.schedule_in(random_.uniform_int(0, 20) * 100 * sim::kMicrosecond);
  }
  void command_completed(Command& c) override {
    const auto index = static_cast<std::size_t>(&c - commands_.data());
    ++times_completed_[index];
    if (c.device_end < c.device_start || sim_.now() < c.device_start) early = true;
    completions.push_back({static_cast<int>(index), sim_.now()});
  }

  sim::Simulator& sim_;
  Device& device_;
  std::vector<Command> commands_;
  std::size_t next_ = 0;
  sim::Random random_;
  sim::Timer tick_;
};

std::vector<Completion> run_mixed(const char* preset, int commands) {
  sim::Simulator sim;
  DeviceConfig config = testing::preset(preset);
  if (config.controller.cache > 0) config.controller.cache = 4 * sim::kMiB;  // make writes wait for room too
  auto device = make_device(sim, config, 42, "dev");
  MixedLoad load(sim, *device, commands);
  load.start();
  sim.run();
  CHECK(device->outstanding() == 0);
  CHECK_FALSE(load.early);
  for (int n : load.times_completed_) REQUIRE(n == 1);
  return load.completions;
}

}  // namespace

TEST_CASE("every submitted command completes exactly once, and runs are deterministic") {
  for (const char* preset :
       {"hdd-7200-sata", "hdd-15k-sas", "raid1-hdd-7200", "raid1-hdd-7200-bbwc", "ssd-sata", "nvme"}) {
    CAPTURE(preset);
    const auto first = run_mixed(preset, 3000);
    CHECK(first.size() == 3000);
    const auto second = run_mixed(preset, 3000);
    CHECK(first == second);
  }
}

TEST_CASE("different seeds start the spindle at different angles") {
  sim::Simulator sim;
  const DeviceConfig c = testing::preset("hdd-7200-sata");
  auto a = make_device(sim, c, 1, "sda");
  auto b = make_device(sim, c, 2, "sda");
  testing::Sink owner;
  Command ra, rb;
  ra.op = rb.op = Op::Read;
  ra.bytes = rb.bytes = 8192;
  ra.sector = rb.sector = 123456;
  ra.owner = rb.owner = &owner;
  a->submit(ra);
  b->submit(rb);
  sim.run();
  CHECK(ra.device_end != rb.device_end);
}
