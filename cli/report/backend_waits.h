// cli/report/backend_waits.h
//
// Where the measured run's backends spent their time, per progress interval:
// waits.csv (seconds of backend time per wait event, as pg_stat_activity
// names them, plus CPU; a row sums to clients x interval) and io_layers.csv
// (the IO wait events' seconds split by the Linux layer that held the
// backend; a row sums to the IO:* columns of the same row of waits.csv).
// Both are read from the backends' own clocks (postgres::WaitClock,
// os::OsTask::io_layers), so nothing is sampled and nothing is lost.
#pragma once

#include <array>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/os/io_layer.h"
#include "models/postgres/server.h"
#include "models/postgres/wait_event.h"
#include "sim/sampler.h"

namespace ckptsim::cli {

class BackendWaits {
 public:
  static constexpr std::size_t kEvents = static_cast<std::size_t>(postgres::WaitEvent::Count);
  // io_layers.csv: every layer but None, then "other" (IO wait time the kernel spent without sleeping).
  static constexpr std::size_t kLayers = static_cast<std::size_t>(os::IoLayer::Count);

  struct Totals {
    std::array<sim::Duration, kEvents> events{};
    std::array<sim::Duration, kLayers> layers{};  // [None] holds "other"
  };

  // Totals count from now.
  explicit BackendWaits(std::vector<const postgres::Backend*> backends);

  void add_wait_columns(sim::Table& waits);
  void add_layer_columns(sim::Table& io_layers);
  // Time since construction.
  Totals totals() const;
  // summary.json "waits": {"events": {name: s}, "io_layers": {name: s}, "backend_seconds": s}.
  nlohmann::ordered_json summary_json() const;

 private:
  Totals now_totals() const;  // since each backend connected

  std::vector<const postgres::Backend*> backends_;
  Totals origin_;
  // At the previous close of each table.
  std::array<sim::Duration, kEvents> events_at_close_{};
  std::array<sim::Duration, kLayers> layers_at_close_{};
};

}  // namespace ckptsim::cli
