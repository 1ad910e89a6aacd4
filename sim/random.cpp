// sim/random.cpp
#include "sim/random.h"

#include <cmath>

namespace ckptsim::sim {

namespace {

// splitmix64 (Steele, Lea, Flood): a full-period mixer used to spread a
// single 64-bit seed over the generator's 256 bits of state.
std::uint64_t splitmix64(std::uint64_t& x) noexcept {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a(std::string_view text) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t scenario_seed, std::string_view owner_name) noexcept {
  std::uint64_t x = scenario_seed;
  const std::uint64_t mixed_seed = splitmix64(x);
  std::uint64_t y = mixed_seed ^ fnv1a(owner_name);
  return splitmix64(y);
}

Random::Random(std::uint64_t seed) noexcept {
  for (std::uint64_t& word : state_) word = splitmix64(seed);
}

Random::Random(std::uint64_t scenario_seed, std::string_view name) noexcept
    : Random(derive_seed(scenario_seed, name)) {}

std::int64_t Random::uniform_int(std::int64_t lo, std::int64_t hi) noexcept { return UniformInt(lo, hi)(*this); }

double Random::uniform01() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Random::exponential(double mean) noexcept {
  // 1 - u is in (0, 1], so the logarithm is finite.
  return -mean * std::log(1.0 - uniform01());
}

Duration Random::exponential_duration(Duration mean) noexcept {
  return static_cast<Duration>(std::llround(exponential(static_cast<double>(mean))));
}

}  // namespace ckptsim::sim
