// scenarios/repeat.cpp: a scenario's "repeat" (see repeat.h).
#include "scenarios/repeat.h"

#include "scenarios/units.h"

namespace ckptsim::scenarios {

std::uint64_t repeat_seed(std::uint64_t seed, int k) {
  if (k <= 1) return seed;
  std::uint64_t z = seed + static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) >> 11;
}

int read_repeat(const json& value, const std::string& where, Errors& errors) {
  std::string expected;
  const auto n = value.is_string() ? std::nullopt : parse_integer(value, &expected);
  if (!n) {
    errors.add(where, shown(value) + " " + (expected.empty() ? "is not an integer" : expected) +
                          " (expected how many times to run each point, 1.." + std::to_string(kMaxRepeat) + ")");
    return 1;
  }
  if (*n < 1 || *n > kMaxRepeat) {
    errors.add(where, shown(value) + " is out of range (1.." + std::to_string(kMaxRepeat) + ")");
    return 1;
  }
  return static_cast<int>(*n);
}

std::vector<GridPoint> repeated_points(std::vector<GridPoint> points, int repeat) {
  if (repeat <= 1) return points;
  std::vector<GridPoint> out;
  out.reserve(points.size() * static_cast<std::size_t>(repeat));
  for (int k = 1; k <= repeat; ++k) {
    for (const GridPoint& point : points) {
      GridPoint copy = point;
      copy.repeat = k;
      copy.base_name = point.name;
      copy.name = (point.name.empty() ? "" : point.name + ",") + "repeat=" + std::to_string(k);
      const std::uint64_t seed = repeat_seed(point.scenario.seed, k);
      for (Scenario* sc : {&copy.scenario, copy.warmup_host ? &*copy.warmup_host : nullptr}) {
        if (!sc) continue;
        sc->seed = seed;
        sc->resolved["seed"] = seed;
      }
      out.push_back(std::move(copy));
    }
  }
  return out;
}

}  // namespace ckptsim::scenarios
