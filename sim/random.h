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

#include <bit>
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

  // Inline: every draw of every distribution starts here.
  std::uint64_t next() noexcept {
    const std::uint64_t result = std::rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = std::rotl(state_[3], 45);
    return result;
  }
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

// Random::uniform_int over one range, drawn again and again (pgbench's aid,
// tid and bid at every transaction): the same numbers from the same stream,
// with the rejection threshold, a 64-bit division, worked out once.
class UniformInt {
 public:
  UniformInt(std::int64_t lo, std::int64_t hi) noexcept
      : lo_(static_cast<std::uint64_t>(lo)),
        span_(static_cast<std::uint64_t>(hi) - lo_ + 1),
        // Reject the low (2^64 mod span) values so every residue is equally likely.
        threshold_(span_ == 0 ? 0 : (0 - span_) % span_) {}

  std::int64_t operator()(Random& rng) const noexcept {
    if (span_ == 0) return static_cast<std::int64_t>(rng.next());  // the whole 64-bit range
    for (;;) {
      const std::uint64_t x = rng.next();
      if (x >= threshold_) return static_cast<std::int64_t>(lo_ + x % span_);
    }
  }

 private:
  std::uint64_t lo_, span_, threshold_;
};

}  // namespace ckptsim::sim
