// sim/time.h
//
// Simulated time is an integer count of nanoseconds since the start of a run:
// no floating-point clock, no wall clock. Sizes are integer bytes.
#pragma once

#include <cstdint>

namespace ckptsim::sim {

using Time = std::int64_t;      // nanoseconds since the simulation started
using Duration = std::int64_t;  // nanoseconds
using Bytes = std::int64_t;

inline constexpr Duration kNanosecond = 1;
inline constexpr Duration kMicrosecond = 1000 * kNanosecond;
inline constexpr Duration kMillisecond = 1000 * kMicrosecond;
inline constexpr Duration kSecond = 1000 * kMillisecond;
inline constexpr Duration kMinute = 60 * kSecond;
inline constexpr Duration kHour = 60 * kMinute;
inline constexpr Duration kDay = 24 * kHour;

inline constexpr Bytes kKiB = 1024;
inline constexpr Bytes kMiB = 1024 * kKiB;
inline constexpr Bytes kGiB = 1024 * kMiB;
inline constexpr Bytes kTiB = 1024 * kGiB;

// Simulated time 0 is this wall-clock instant (2015-08-17 10:00:00 UTC), for
// the timestamps that logs print (postgres.log, pgbench's aggregate log).
inline constexpr std::int64_t kEpochUnixSeconds = 1439805600;

inline constexpr double to_seconds(Duration d) { return static_cast<double>(d) / kSecond; }
inline constexpr double to_millis(Duration d) { return static_cast<double>(d) / kMillisecond; }

}  // namespace ckptsim::sim
