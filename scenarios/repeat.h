// scenarios/repeat.h
//
// "repeat": N (1..100, default 1; --set repeat=N) runs each point of a
// scenario N times, as the published E2 runs were repeated to see their
// spread. Repeat K of a point is named "<point>,repeat=K" ("repeat=K" for a
// scenario without a grid) and runs with its own seed:
//   repeat 1: the scenario's seed, so it equals the run without "repeat";
//   repeat K > 1: splitmix64's finaliser (Steele, Lea, Flood 2014) of
//     seed + K * 0x9E3779B97F4A7C15, shifted right by 11 bits so that it
//     stays below 2^53 (exact in any JSON reader).
// The repeats are interleaved in running order (every point's repeat 1, then
// every point's repeat 2: a b a b), so a grid stopped half way has whole
// repeats of every point rather than every repeat of a few.
#pragma once

#include <cstdint>
#include <vector>

#include "scenarios/scenario.h"
#include "scenarios/schema.h"

namespace ckptsim::scenarios {

inline constexpr int kMaxRepeat = 100;

// Repeat K's seed (K >= 1) for a scenario seeded `seed`.
std::uint64_t repeat_seed(std::uint64_t seed, int k);

// The "repeat" value (from the file or --set repeat=N, under `where`), or 1 after an error.
int read_repeat(const json& value, const std::string& where, Errors& errors);

// The plan's points, each `repeat` times, interleaved; names, seeds and repeat indices set.
std::vector<GridPoint> repeated_points(std::vector<GridPoint> points, int repeat);

}  // namespace ckptsim::scenarios
