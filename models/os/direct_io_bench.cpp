// models/os/direct_io_bench.cpp
//
// The fio-like job runner of direct_io_bench.h.
#include "models/os/direct_io_bench.h"

#include <algorithm>
#include <memory>

#include "sim/event.h"
#include "sim/process.h"
#include "sim/random.h"

namespace ckptsim::os {

namespace {

struct JobState;

// One outstanding I/O slot: its bio and the latch its process waits on.
struct Slot final : BioOwner {
  explicit Slot(sim::Simulator& sim) : done(sim) {}
  void bio_done(Bio&) override;
  JobState* job = nullptr;
  std::vector<Bio> bios;
  int pending = 0;
  sim::Event done;
};

struct JobState {
  JobState(sim::Simulator& s, BlockQueue& q, BlockDevice* t, const DirectJob& j, std::uint64_t seed)
      : sim(s), queue(q), throttle(t), job(j), rng(seed, "devbench/" + j.name) {}
  sim::Simulator& sim;
  BlockQueue& queue;
  BlockDevice* throttle;  // blk-throttle above the queue, or null
  const DirectJob& job;
  sim::Random rng;
  sim::Time measure_from = 0, measure_to = 0;
  bool stopping = false;
  int running = 0;
  std::int64_t span_blocks = 0;
  std::int64_t cursor = 0;  // sequential: next block
  std::vector<sim::Duration> latencies;
  std::vector<sim::Time> submitted;  // per bio of the current batch, by index
};

void Slot::bio_done(Bio& bio) {
  const sim::Time now = job->sim.now();
  const sim::Time started = job->submitted[static_cast<std::size_t>(bio.first_block)];
  if (started >= job->measure_from && now <= job->measure_to) job->latencies.push_back(now - started);
  if (--pending == 0) done.set();
}

sim::Process worker(JobState& st, Slot& slot, int slot_index) {
  const std::int64_t sectors_per_io = st.job.block / disk::kSectorBytes;
  while (!st.stopping) {
    const int n = st.job.random ? 1 : st.job.batch;
    slot.bios.resize(static_cast<std::size_t>(n));
    slot.pending = n;
    slot.done.reset();
    Plug plug;
    for (int i = 0; i < n; ++i) {
      std::int64_t block;
      if (st.job.random) {
        block = st.rng.uniform_int(0, st.span_blocks - 1);
      } else {
        block = st.cursor;
        st.cursor = (st.cursor + 1) % st.span_blocks;
      }
      Bio& bio = slot.bios[static_cast<std::size_t>(i)];
      bio = Bio{};
      bio.op = st.job.write ? disk::Op::Write : disk::Op::Read;
      bio.sync = true;  // O_DIRECT writes are WRITE_SYNC
      bio.pid = slot_index + 1;
      bio.owner = &slot;
      bio.sector = block * sectors_per_io;
      bio.bytes = st.job.block;
      const std::size_t id =
          static_cast<std::size_t>(slot_index) * static_cast<std::size_t>(n) + static_cast<std::size_t>(i);
      bio.first_block = static_cast<std::int64_t>(id);
      st.submitted[id] = st.sim.now();
      if (st.throttle != nullptr) {
        co_await st.throttle->submit_bio(bio, &plug);
      } else if (!st.queue.try_submit(bio, &plug)) {
        st.queue.unplug(plug);
        st.queue.submit_into(co_await st.queue.get_request(true), bio, &plug);
      }
    }
    st.queue.unplug(plug);
    co_await slot.done;
    if (st.job.flush_each) {
      // (Not one co_await of a ?: of two tasks: GCC 12 miscompiles that temporary.)
      if (st.throttle != nullptr) {
        co_await st.throttle->flush_cache();
      } else {
        co_await st.queue.flush_cache();
      }
    }
  }
  --st.running;
}

double percentile(std::vector<sim::Duration>& v, double q) {
  if (v.empty()) return 0;
  const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return sim::to_millis(v[k]);
}

}  // namespace

DirectJobResult run_direct_job(sim::Simulator& sim, BlockQueue& queue, const DirectJob& job, std::uint64_t seed,
                               BlockDevice* throttle) {
  JobState st(sim, queue, throttle, job, seed);
  const sim::Bytes span = job.span > 0 ? job.span : queue.device_info().capacity_bytes;
  st.span_blocks = std::max<std::int64_t>(span / job.block, 1);
  st.measure_from = sim.now() + job.ramp;
  st.measure_to = st.measure_from + job.runtime;
  const int slots = job.random ? job.iodepth : 1;
  const int per_slot = job.random ? 1 : job.batch;
  st.submitted.assign(static_cast<std::size_t>(slots * per_slot), 0);
  st.latencies.reserve(1 << 16);
  std::vector<std::unique_ptr<Slot>> slot_objects;
  for (int i = 0; i < slots; ++i) {
    slot_objects.push_back(std::make_unique<Slot>(sim));
    slot_objects.back()->job = &st;
    ++st.running;
    sim.spawn(worker(st, *slot_objects.back(), i));
  }
  sim.run_until(st.measure_to);
  st.stopping = true;
  while (st.running > 0) sim.run_until(sim.now() + 100 * sim::kMillisecond);
  DirectJobResult r;
  r.name = job.name;
  r.ios = static_cast<std::int64_t>(st.latencies.size());
  const double seconds = sim::to_seconds(job.runtime);
  r.iops = static_cast<double>(r.ios) / seconds;
  r.mb_per_s = r.iops * static_cast<double>(job.block) / sim::kMiB;
  r.p50_ms = percentile(st.latencies, 0.50);
  r.p99_ms = percentile(st.latencies, 0.99);
  r.max_in_flight = queue.peak_device_outstanding();
  return r;
}

}  // namespace ckptsim::os
