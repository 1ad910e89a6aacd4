// models/os/drain_bench.cpp
//
// The writeback sweep of drain_bench.h.
#include "models/os/drain_bench.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/event.h"
#include "sim/process.h"
#include "sim/random.h"

namespace ckptsim::os {

namespace {

struct Sweep final : BioOwner {
  explicit Sweep(sim::Simulator& s) : sim(s), written(s) {}
  void bio_done(Bio&) override {
    if (++completed == static_cast<std::int64_t>(bios.size())) written.set();
  }
  sim::Simulator& sim;
  std::vector<Bio> bios;
  std::int64_t completed = 0;
  sim::Event written;  // every write has completed
  sim::Time finished = -1;
};

sim::Process flusher(Sweep& sweep, BlockQueue& queue, BlockDevice* throttle, int chunk) {
  std::size_t next = 0;
  while (next < sweep.bios.size()) {
    Plug plug;
    for (int i = 0; i < chunk && next < sweep.bios.size(); ++i) {
      Bio& bio = sweep.bios[next++];
      if (throttle != nullptr) {
        co_await throttle->submit_bio(bio, &plug);
      } else if (!queue.try_submit(bio, &plug)) {
        queue.unplug(plug);
        queue.submit_into(co_await queue.get_request(false), bio, &plug);
      }
    }
    queue.unplug(plug);
  }
  // Wait for the last writes as fsync's filemap_fdatawait does, then flush the cache.
  co_await sweep.written;
  if (throttle != nullptr) {
    co_await throttle->flush_cache();
  } else {
    co_await queue.flush_cache();
  }
  sweep.finished = sweep.sim.now();
}

}  // namespace

DrainResult run_drain_job(sim::Simulator& sim, BlockQueue& queue, const DrainJob& job, std::uint64_t seed,
                          BlockDevice* throttle) {
  Sweep sweep(sim);
  const std::int64_t stride = std::max<std::int64_t>(job.stride, 1);
  const std::int64_t blocks = job.span / kBlockBytes;
  std::vector<std::int64_t> dirty;
  for (std::int64_t b = 0; b < blocks; b += stride) dirty.push_back(b);
  if (!job.ascending) {
    sim::Random rng(seed, "drain/" + job.name);
    for (std::size_t i = dirty.size(); i > 1; --i) {
      std::swap(dirty[i - 1], dirty[static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
    }
  }
  if (dirty.empty()) return DrainResult{job.name};
  sweep.bios.resize(dirty.size());
  for (std::size_t i = 0; i < dirty.size(); ++i) {
    Bio& bio = sweep.bios[i];
    bio.op = disk::Op::Write;
    bio.sync = false;  // flusher writeback is async
    bio.pid = 1;
    bio.owner = &sweep;
    bio.sector = dirty[i] * (kBlockBytes / disk::kSectorBytes);
    bio.bytes = kBlockBytes;
    bio.first_block = dirty[i];
  }
  const sim::Time start = sim.now();
  sim.spawn(flusher(sweep, queue, throttle, job.chunk));
  while (sweep.finished < 0) sim.run_until(sim.now() + sim::kSecond);
  DrainResult r;
  r.name = job.name;
  r.writes = static_cast<std::int64_t>(dirty.size());
  r.seconds = sim::to_seconds(sweep.finished - start);
  r.writes_per_s = r.seconds > 0 ? static_cast<double>(r.writes) / r.seconds : 0;
  return r;
}

}  // namespace ckptsim::os
