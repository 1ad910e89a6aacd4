// models/disk/fio.cpp
#include "models/disk/fio.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>

#include "sim/random.h"

namespace ckptsim::disk {

namespace {

// The state of one job while it runs.
struct JobState {
  JobState(const FioJob& j, std::int64_t capacity)
      : job(j), random(j.seed, "fio/" + j.name), slots(static_cast<std::size_t>(std::max(1, j.queue_depth))) {
    const std::int64_t block_sectors = std::max<std::int64_t>(1, j.block_size / kSectorBytes);
    const auto sectors = static_cast<double>(capacity / kSectorBytes);
    first_block = static_cast<std::int64_t>(j.offset * sectors) / block_sectors;
    blocks = std::max<std::int64_t>(1, static_cast<std::int64_t>(j.span * sectors) / block_sectors);
    blocks = std::min(blocks, capacity / kSectorBytes / block_sectors - first_block);
    for (int i = static_cast<int>(slots.size()) - 1; i >= 0; --i) free.push_back(i);
  }
  const FioJob& job;
  sim::Random random;
  std::vector<Command> slots;
  std::vector<int> free;
  std::int64_t first_block = 0;
  std::int64_t blocks = 1;
  std::int64_t next_block = 0;  // sequential position within the region
  std::int64_t issued = 0;
  sim::Time measure_from = 0;
  sim::Time stop_at = 0;  // duration jobs: no issue after this
  sim::Time last_completion = 0;
  FioResult result;
};

class FioRunner final : public CommandOwner {
 public:
  FioRunner(sim::Simulator& sim, Device& device, const std::vector<FioJob>& jobs) : sim_(sim), device_(device) {
    for (const FioJob& job : jobs) {
      if (job.duration <= 0 && job.count <= 0)
        throw std::invalid_argument("fio job " + job.name + ": no duration or count");
      auto state = std::make_unique<JobState>(job, device.info().capacity_bytes);
      state->measure_from = sim.now() + job.ramp;
      state->stop_at = sim.now() + job.ramp + job.duration;
      state->result.name = job.name;
      for (Command& c : state->slots) c.owner = this;
      states_.push_back(std::move(state));
    }
  }

  std::vector<FioResult> run() {
    pump_all(0);
    sim_.run();
    std::vector<FioResult> results;
    for (auto& s : states_) {
      FioResult& r = s->result;
      r.runtime =
          s->job.duration > 0 ? s->job.duration : std::max<sim::Duration>(1, s->last_completion - s->measure_from);
      r.ios = static_cast<std::int64_t>(r.latencies.size());
      const double seconds = sim::to_seconds(r.runtime);
      r.iops = static_cast<double>(r.ios) / seconds;
      r.mb_per_s = static_cast<double>(r.ios) * static_cast<double>(s->job.block_size) / 1e6 / seconds;
      if (!r.latencies.empty()) {
        std::vector<sim::Duration> sorted = r.latencies;
        std::sort(sorted.begin(), sorted.end());
        const auto rank = [&](double p) {  // nearest rank
          const auto n = static_cast<double>(sorted.size());
          const auto i = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n))) - 1;
          return sim::to_millis(sorted[i]);
        };
        double sum = 0;
        for (sim::Duration d : sorted) sum += sim::to_millis(d);
        r.lat_mean_ms = sum / static_cast<double>(sorted.size());
        r.lat_p50_ms = rank(0.50);
        r.lat_p99_ms = rank(0.99);
        r.lat_max_ms = sim::to_millis(sorted.back());
      }
      results.push_back(std::move(r));
    }
    return results;
  }

 private:
  bool may_issue(const JobState& s) const {
    if (s.job.duration > 0) return sim_.now() < s.stop_at;
    return s.issued < s.job.count;
  }

  void pump(JobState& s) {
    const Op op = s.job.write ? Op::Write : Op::Read;
    while (!s.free.empty() && may_issue(s) && device_.can_accept(op)) {
      Command& c = s.slots[static_cast<std::size_t>(s.free.back())];
      s.free.pop_back();
      std::int64_t block;
      if (s.job.random) {
        block = s.random.uniform_int(0, s.blocks - 1);
      } else {
        block = s.next_block;
        s.next_block = (s.next_block + 1) % s.blocks;
      }
      c.op = op;
      c.bytes = s.job.block_size;
      c.sector = (s.first_block + block) * (s.job.block_size / kSectorBytes);
      c.fua = false;
      ++s.issued;
      device_.submit(c);
    }
  }

  // Every job gets a turn, starting after the one that just completed, so
  // that no job starves the others of device slots.
  void pump_all(std::size_t first) {
    for (std::size_t i = 0; i < states_.size(); ++i) pump(*states_[(first + i) % states_.size()]);
  }

  void command_completed(Command& c) override {
    for (std::size_t j = 0; j < states_.size(); ++j) {
      JobState& s = *states_[j];
      const std::less<const Command*> before;
      if (before(&c, s.slots.data()) || !before(&c, s.slots.data() + s.slots.size())) continue;
      const sim::Time now = sim_.now();
      const bool in_window = c.device_start >= s.measure_from && (s.job.duration <= 0 || now <= s.stop_at);
      if (in_window) {
        s.result.latencies.push_back(now - c.device_start);
        s.last_completion = now;
      }
      s.free.push_back(static_cast<int>(&c - s.slots.data()));
      pump_all(j + 1);
      return;
    }
  }

  sim::Simulator& sim_;
  Device& device_;
  std::vector<std::unique_ptr<JobState>> states_;
};

}  // namespace

std::vector<FioResult> run_fio(sim::Simulator& sim, Device& device, const std::vector<FioJob>& jobs) {
  FioRunner runner(sim, device, jobs);
  return runner.run();
}

FioResult run_fio(sim::Simulator& sim, Device& device, const FioJob& job) {
  return run_fio(sim, device, std::vector<FioJob>{job}).front();
}

}  // namespace ckptsim::disk
