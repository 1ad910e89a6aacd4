// sim/random.h
//
// Deterministic random streams, one per named owner ("client.3",
// "hdd0.seek"). Each stream's seed is derived from the scenario's seed and
// its owner's name, so adding or removing an actor never shifts the numbers
// another actor draws, and a run is reproducible from (scenario, seed).
//
// Generator: xoshiro256** (Blackman & Vigna), state filled by splitmix64.
// Distributions are written here rather than taken from <random>, whose
// distributions differ between standard libraries: the same seed gives the
// same numbers on every platform. exponential() uses std::log, which glibc
// and the other mainstream libms compute correctly rounded in practice.
#pragma once

#include <cstdint>
#include <string_view>

#include "sim/time.h"

namespace ckptsim::sim {

// FNV-1a of the name, mixed with the scenario seed through splitmix64.
std::uint64_t derive_seed(std::uint64_t scenario_seed, std::string_view owner_name) noexcept;

class Random {
 public:
  explicit Random(std::uint64_t seed) noexcept;
  Random(std::uint64_t scenario_seed, std::string_view name) noexcept;

  std::uint64_t next() noexcept;
  // Uniform on [lo, hi], both inclusive, without modulo bias. Requires lo <= hi.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) noexcept;
  // Uniform on [0, 1) with 53 random bits.
  double uniform01() noexcept;
  // Exponentially distributed with the given mean (inter-arrival times).
  double exponential(double mean) noexcept;
  // The same, rounded to whole nanoseconds.
  Duration exponential_duration(Duration mean) noexcept;

 private:
  std::uint64_t state_[4];
};

}  // namespace ckptsim::sim
