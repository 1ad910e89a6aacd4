// sim/sampler.h
//
// The statistics sampler: every `period` of simulated time it closes an
// interval and emits one row per table ("progress" like pgbench -P, "system"
// like iostat -x / vmstat), the way the real tools print a line per second.
//
// Models do not push figures; they register sources that the sampler pulls
// at each close. A source owns a run of adjacent columns and fills exactly
// those, from its own counters (usually the change since the previous
// close). The first column of every table is time_s, the end of the interval
// in seconds since start()'s origin, as pgbench -P counts from its start. Sinks (a CSV writer, an in-memory series)
// receive each closed row.
//
// Interval closes are scheduled at origin + k * period (no drift from
// rounding), by a Timer. Sources and sinks are meant to be registered before
// start(); tables keep their creation order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "sim/simulator.h"
#include "sim/time.h"
#include "sim/timer.h"

namespace ckptsim::sim {

struct Interval {
  Time start;
  Time end;
  std::int64_t index;  // 0 for the first interval after start()
  Time origin = 0;     // start()'s origin: time_s counts from here
};

using Cell = std::variant<std::int64_t, double, std::string>;

class Table {
 public:
  using Fill = std::function<void(const Interval&, std::span<Cell>)>;
  using Sink = std::function<void(const Table&, const std::vector<Cell>&)>;

  explicit Table(std::string name);
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const std::string& name() const noexcept { return name_; }
  // Appends the source's columns to the header; fill receives a span over
  // exactly those cells of each row, in the same order.
  void add_source(std::vector<std::string> columns, Fill fill);
  void add_sink(Sink sink);
  // The header: "time_s" first, then each source's columns in registration order.
  const std::vector<std::string>& columns() const noexcept { return columns_; }

 private:
  friend class Sampler;
  struct Source {
    std::size_t first_column;
    std::size_t column_count;
    Fill fill;
  };
  void close(const Interval& interval);

  std::string name_;
  std::vector<std::string> columns_;
  std::vector<Source> sources_;
  std::vector<Sink> sinks_;
  std::vector<Cell> row_;  // reused from one close to the next
};

class Sampler {
 public:
  Sampler(Simulator& sim, Duration period);
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // The table of that name, created on first use.
  Table& table(const std::string& name);
  const std::vector<std::unique_ptr<Table>>& tables() const noexcept { return tables_; }

  // The first interval runs from origin to origin + period.
  void start(Time origin);
  // No further closes.
  void stop() noexcept;
  // Closes the current interval now if it has any length (the end of a run
  // that is not a whole number of periods). Later closes stay on the grid.
  void close_partial();

  Duration period() const noexcept { return period_; }
  std::int64_t intervals_closed() const noexcept { return closed_; }

 private:
  void close_at(Time end);
  void on_tick();

  Simulator& sim_;
  Duration period_;
  Time origin_ = 0;
  Time interval_start_ = 0;
  std::int64_t closed_ = 0;
  std::int64_t ticks_ = 0;  // grid closes done: the next is at origin + (ticks_ + 1) * period
  std::vector<std::unique_ptr<Table>> tables_;
  Timer timer_;
};

}  // namespace ckptsim::sim
