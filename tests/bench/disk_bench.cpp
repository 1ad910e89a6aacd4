// tests/bench/disk_bench.cpp
//
// Throughput of the device models, in simulator events and completed
// commands per wall second: an hdd-7200-sata-like drive under QD32 random
// 8 kB reads (an SPTF pick over the queue per command), and an NVMe-like SSD
// under QD32 random reads (calendar reservations, one event per command).
// Measured, never asserted.
#include <benchmark/benchmark.h>

#include "models/disk/device_config.h"
#include "models/disk/fio.h"
#include "models/disk/hdd.h"
#include "models/disk/ssd.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {

template <class Model>
void run(benchmark::State& state, const DeviceConfig& config, sim::Duration simulated) {
  std::int64_t commands = 0, events = 0;
  for (auto _ : state) {
    sim::Simulator sim;
    Model device(sim, config, 1, "bench");
    FioJob job;
    job.queue_depth = 32;
    job.duration = simulated;
    commands += run_fio(sim, device, job).ios;
    events += static_cast<std::int64_t>(sim.events_processed());
  }
  state.SetItemsProcessed(events);
  state.counters["commands_per_s"] = benchmark::Counter(static_cast<double>(commands), benchmark::Counter::kIsRate);
}

void BM_HddRandomReadQd32(benchmark::State& state) {
  run<Hdd>(state, DeviceConfig{}, 60 * sim::kSecond);  // the defaults are hdd-7200-sata's
}

void BM_SsdRandomReadQd32(benchmark::State& state) {
  DeviceConfig config;
  config.kind = disk::Kind::Ssd;
  config.queue_depth = 1023;
  run<Ssd>(state, config, 200 * sim::kMillisecond);
}

}  // namespace

BENCHMARK(BM_HddRandomReadQd32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SsdRandomReadQd32)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
