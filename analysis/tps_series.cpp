#include "analysis/tps_series.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>

namespace ckptsim::analysis {

namespace {

// Beyond this the file is not a progress log (or its times are not seconds).
// A series holds one double per interval: 10 million (115 days of 1 s
// intervals, longer than any pgbench run) keep it under 80 MB. A log whose
// times jump further (a mangled timestamp) is an error, not a huge vector.
constexpr std::int64_t kMaxIntervals = 10'000'000;

// How far before a grid point a -P time may read and still count as at it:
// --progress-timestamp times count from the first line, itself a few ms late,
// so a later on-time line may read a few ms early.
constexpr double kEarlyFraction = 0.01;

}  // namespace

void fail_at(const std::filesystem::path& file, int line, std::string_view what) {
  throw std::runtime_error(fmt::format("{}:{}: {}", file.string(), line, what));
}

double infer_interval(const std::vector<TimedTps>& readings) {
  double interval = std::numeric_limits<double>::infinity();
  double previous = 0;
  for (const TimedTps& r : readings) {
    if (r.time_s > previous) interval = std::min(interval, r.time_s - previous);
    previous = r.time_s;
  }
  return std::isfinite(interval) ? interval : 1;  // a single reading at time 0
}

double most_common_step(const std::vector<double>& times, double resolution) {
  std::map<std::int64_t, int> steps;  // in units of resolution
  double smallest = std::numeric_limits<double>::infinity();
  for (std::size_t i = 1; i < times.size(); ++i) {
    const double step = times[i] - times[i - 1];
    if (!(step > 0) || !std::isfinite(step)) continue;
    smallest = std::min(smallest, step);
    const double units = std::round(step / resolution);
    if (units >= 1 && units < static_cast<double>(kMaxIntervals)) ++steps[static_cast<std::int64_t>(units)];
  }
  if (steps.empty()) return std::isfinite(smallest) ? smallest : 1;
  const auto most =
      std::max_element(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return static_cast<double>(most->first) * resolution;  // max_element: the first, so the smaller, on a tie
}

std::vector<double> place_on_interval_grid(const std::vector<TimedTps>& readings, double interval_s,
                                           const std::filesystem::path& file, std::string_view time_name,
                                           TimeLabel label) {
  if (!(interval_s >= 0) || !std::isfinite(interval_s)) {
    throw std::invalid_argument(fmt::format("{}: interval {} s is not a positive number", file.string(), interval_s));
  }
  for (std::size_t i = 1; i < readings.size(); ++i) {
    const TimedTps &r = readings[i], &before = readings[i - 1];
    if (r.time_s <= before.time_s) {
      fail_at(file, r.line,
              fmt::format("{} {} {} (previous row: {})", time_name, r.time_s,
                          r.time_s < before.time_s ? "goes backwards" : "is repeated", before.time_s));
    }
  }
  if (readings.empty()) return {};
  const double interval = interval_s > 0 ? interval_s : infer_interval(readings);

  // pgbench labels an interval by its end; a first reading at 0 means starts.
  const bool labels_starts =
      std::round(readings.front().time_s / interval) == 0 && label == TimeLabel::kNearestGridPoint;
  std::vector<double> series;
  std::int64_t previous_slot = -1;
  for (const TimedTps& r : readings) {
    const double grid_point = label == TimeLabel::kNearestGridPoint ? std::round(r.time_s / interval)
                                                                    : std::floor(r.time_s / interval + kEarlyFraction);
    // Checked before the cast to int64: -1e300 does not fit (fuzz_csv).
    if (grid_point < 0) fail_at(file, r.line, fmt::format("{} {} is before the start of the run", time_name, r.time_s));
    if (grid_point > static_cast<double>(kMaxIntervals)) {
      // The reading before is named too: a jump from it is the usual cause (a mangled time).
      const std::string before = &r == &readings.front() ? std::string()
                                                         : fmt::format(" (the reading before, line {}, is at {} {})",
                                                                       (&r - 1)->line, time_name, (&r - 1)->time_s);
      fail_at(file, r.line,
              fmt::format("{} {} is more than {} intervals of {} s after the run's start{}: a series that long is "
                          "not a run's",
                          time_name, r.time_s, kMaxIntervals, interval, before));
    }
    const std::int64_t slot = static_cast<std::int64_t>(grid_point) - (labels_starts ? 0 : 1);
    if (slot < 0) {
      fail_at(file, r.line,
              fmt::format("{} {} is before the end of the first {} s interval", time_name, r.time_s, interval));
    }
    if (slot == previous_slot) {
      fail_at(file, r.line,
              fmt::format("{} {} falls in the same {} s interval as the previous row", time_name, r.time_s, interval));
    }
    series.resize(static_cast<std::size_t>(slot) + 1, 0.0);  // missing intervals: 0 tps
    series[static_cast<std::size_t>(slot)] = r.tps;
    previous_slot = slot;
  }
  return series;
}

}  // namespace ckptsim::analysis
