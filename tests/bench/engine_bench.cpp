// tests/bench/engine_bench.cpp
//
// Throughput of the engine's hot paths, in events per wall second
// (items_per_second): N processes ping-ponging through short sleeps (the
// event queue and coroutine resumption), and N processes contending for an
// 8-core Resource through use() (every transaction's CPU slice).
//
// Each process draws its sleep lengths from its own small LCG so that the
// queue order keeps changing (a fixed period would make the heap trivially
// FIFO). Measured, never asserted: see the engine's report for figures.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "sim/resource.h"
#include "sim/simulator.h"

using namespace ckptsim::sim;

namespace {

// 1..1024 ns, cheap and deterministic.
Duration next_delay(std::uint64_t& state) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<Duration>((state >> 54) + 1);
}

Process sleeper(Simulator& sim, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (;;) co_await sim.sleep(next_delay(state));
}

Process cpu_user(Simulator& sim, Resource& cpu, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (;;) {
    co_await cpu.use(next_delay(state));
    co_await sim.sleep(next_delay(state));  // think time between slices
  }
}

// Runs the simulation forward in slices of simulated time, so that one
// benchmark iteration is a few thousand events whatever N is.
void run_slices(benchmark::State& state, Simulator& sim, Duration slice) {
  sim.run_until(10 * slice);  // warm up: heap at its working size
  const std::uint64_t before = sim.events_processed();
  for (auto _ : state) sim.run_until(sim.now() + slice);
  state.SetItemsProcessed(static_cast<std::int64_t>(sim.events_processed() - before));
}

void BM_SleepPingPong(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Simulator sim;
  for (int i = 0; i < n; ++i) sim.spawn(sleeper(sim, static_cast<std::uint64_t>(i) * 7919 + 1));
  // Mean sleep ~512 ns: a 512 us slice is ~1000 events per process.
  run_slices(state, sim, 512 * kMicrosecond / n * 4);
}
BENCHMARK(BM_SleepPingPong)->Arg(4)->Arg(64)->Arg(1024);

void BM_ResourceUse8Cores(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  Simulator sim;
  Resource cpu(sim, 8);
  for (int i = 0; i < n; ++i) sim.spawn(cpu_user(sim, cpu, static_cast<std::uint64_t>(i) * 104729 + 3));
  run_slices(state, sim, 512 * kMicrosecond / n * 4);
  state.counters["utilisation"] = static_cast<double>(cpu.busy_time()) / (8.0 * static_cast<double>(sim.now()));
}
BENCHMARK(BM_ResourceUse8Cores)->Arg(8)->Arg(64)->Arg(1024);

}  // namespace

BENCHMARK_MAIN();
