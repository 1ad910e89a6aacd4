#include "cli/run_point.h"

#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"
#include "models/disk/make_device.h"
#include "models/os/kernel.h"
#include "models/pgbench/pgbench.h"
#include "models/pgbench/report.h"
#include "models/pgbench/tables.h"
#include "models/postgres/server.h"
#include "sim/sampler.h"
#include "sim/simulator.h"

namespace ckptsim::cli {

namespace {

using json = nlohmann::ordered_json;

std::string cell_text(const sim::Cell& cell) {
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&cell)) return analysis::format_fixed(*d, 3);
  return std::get<std::string>(cell);
}

// Streams a sampler table into a CSV file that appears under its final name
// only when the run completes.
class TableCsv {
 public:
  TableCsv(sim::Table& table, const std::filesystem::path& path) : path_(path) {
    table.add_sink([this](const sim::Table& t, const std::vector<sim::Cell>& row) {
      if (!writer_) writer_ = std::make_unique<analysis::CsvWriter>(path_, t.columns());
      line_.clear();
      for (const auto& cell : row) line_.push_back(cell_text(cell));
      writer_->row(line_);
    });
    columns_ = &table;
  }
  void commit() {
    if (!writer_) writer_ = std::make_unique<analysis::CsvWriter>(path_, columns_->columns());
    writer_->commit();
  }

 private:
  std::filesystem::path path_;
  const sim::Table* columns_ = nullptr;
  std::unique_ptr<analysis::CsvWriter> writer_;
  std::vector<std::string> line_;
};

double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in kB on Linux
}

json stability_json(const analysis::Stability& s) {
  return {{"tps_mean", s.tps_mean},       {"tps_stddev", s.tps_stddev}, {"threshold", s.threshold},
          {"pct_below_threshold", s.pct_below_threshold},
          {"tps_min", s.tps_min},         {"tps_q1", s.tps_q1},         {"tps_median", s.tps_median},
          {"tps_q3", s.tps_q3},           {"tps_max", s.tps_max},       {"skipped_pct", s.skipped_pct},
          {"late_pct", s.late_pct}};
}

}  // namespace

RunOutcome run_point(const scenarios::Scenario& sc, const std::filesystem::path& dir, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::filesystem::create_directories(dir);

  // The machine, bottom up: devices, Linux, PostgreSQL, the pgbench tables.
  sim::Simulator sim;
  sim::Resource cpus(sim, static_cast<int>(sc.hardware.cpus));
  const std::unique_ptr<disk::Device> data_device = disk::make_device(sim, sc.device, sc.seed, "data");
  const std::unique_ptr<disk::Device> wal_device =
      sc.hardware.wal_device.empty() ? nullptr : disk::make_device(sim, sc.wal_device, sc.seed, "wal");
  os::Kernel kernel(sim, sc.os, os::Memory{sc.hardware.ram, postgres::shared_memory_size(sc.postgres)}, *data_device,
                    wal_device.get(), sc.seed);
  postgres::Server server(sim, cpus, kernel, sc.postgres, sc.seed);
  analysis::AtomicFile log(dir / "postgres.log");
  server.set_log_sink([&log](std::string_view line) { log.out() << line << '\n'; });
  pgbench::PgbenchTables tables(server, sc.pgbench.scale);
  server.start();

  const sim::Duration period = sc.pgbench.progress;
  constexpr sim::Time kForever = std::numeric_limits<sim::Time>::max();
  auto run_to_end = [&](pgbench::Pgbench& bench, const pgbench::PgbenchConfig& load) {
    if (load.transactions > 0) {
      while (!bench.finished()) sim.run_until(sim.now() + period);
    } else {
      sim.run_until(sim.now() + load.duration);
    }
  };

  // Warmup: a pgbench run before the measured one, not counted (its object
  // lives on: its last transactions may finish after it ends).
  std::unique_ptr<pgbench::Pgbench> warmup;
  if (sc.warmup.duration > 0 || sc.warmup.transactions > 0) {
    warmup = std::make_unique<pgbench::Pgbench>(sim, cpus, server, tables, sc.warmup, sc.seed, "warmup");
    warmup->start(sc.warmup.transactions > 0 ? kForever : sim.now() + sc.warmup.duration);
    run_to_end(*warmup, sc.warmup);
  }
  server.reset_stats();

  // The measured run; progress intervals count from its start.
  const sim::Time origin = sim.now();
  const pgbench::PgbenchConfig& load = sc.pgbench;
  const bool by_count = load.transactions > 0;
  const int major = pgbench::major_version(sc.postgres.version);
  pgbench::Pgbench bench(sim, cpus, server, tables, load, sc.seed, "run");
  pgbench::TransactionStats& stats = bench.stats();
  std::vector<double> tps_series;

  sim::Sampler sampler(sim, period);
  sim::Table& progress = sampler.table("progress");
  progress.add_source({"tps", "latency_avg_ms", "latency_stddev_ms", "lag_avg_ms", "skipped", "late",
                       "latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_max_ms"},
                      [&](const sim::Interval& iv, std::span<sim::Cell> cells) {
                        const pgbench::TransactionSums s = stats.take_interval();
                        const pgbench::LatencyHistogram& h = stats.interval_histogram();
                        const double secs = sim::to_seconds(iv.end - iv.start);
                        const double tps = secs > 0 ? static_cast<double>(s.transactions) / secs : 0.0;
                        tps_series.push_back(tps);
                        cells[0] = tps;
                        cells[1] = s.latency_avg_ms();
                        cells[2] = s.latency_stddev_ms();
                        cells[3] = s.lag_avg_ms();
                        cells[4] = s.skipped;
                        cells[5] = s.late;
                        cells[6] = h.percentile_ms(50);
                        cells[7] = h.percentile_ms(90);
                        cells[8] = h.percentile_ms(99);
                        cells[9] = h.max_ms();
                        stats.clear_interval_histogram();
                        if (options.print_progress)
                          std::cout << pgbench::progress_line(major, sim::to_seconds(iv.end - origin), tps, s, load)
                                    << '\n';
                        if (options.fraction && !by_count)
                          options.fraction->store(sim::to_seconds(iv.end - origin) / sim::to_seconds(load.duration));
                      });
  sim::Table& system = sampler.table("system");
  kernel.add_system_columns(system);
  server.add_system_columns(system);
  TableCsv progress_csv(progress, dir / "progress.csv");
  TableCsv system_csv(system, dir / "system.csv");

  // --aggregate-interval: pgbench 15's log, one line per interval, epoch timestamps.
  std::unique_ptr<analysis::AtomicFile> aggregate_log;
  std::unique_ptr<sim::Timer> aggregate_timer;
  sim::Time aggregate_start = origin;
  if (load.aggregate_interval > 0) {
    aggregate_log = std::make_unique<analysis::AtomicFile>(dir / "pgbench_log.1");
    aggregate_timer = std::make_unique<sim::Timer>(sim, [&] {
      aggregate_log->out() << pgbench::aggregate_line(sim::kEpochUnixSeconds + aggregate_start / sim::kSecond,
                                                      stats.take_aggregate())
                           << '\n';
      aggregate_start = sim.now();
      aggregate_timer->schedule_in(load.aggregate_interval);
    });
    aggregate_timer->schedule_at(origin + load.aggregate_interval);
  }

  bench.start(by_count ? kForever : origin + load.duration);
  sampler.start(origin);
  run_to_end(bench, load);
  if (by_count) sampler.close_partial();
  sampler.stop();
  if (aggregate_timer) aggregate_timer->cancel();
  const sim::Time finished = sim.now();

  // Invariants of the models, checked at the end of every run.
  std::string why;
  if (!kernel.check_accounting(&why)) throw std::runtime_error("page accounting broken: " + why);
  if (!server.check_durability(&why)) throw std::runtime_error("durability invariant broken: " + why);

  progress_csv.commit();
  system_csv.commit();
  log.commit();
  if (aggregate_log) aggregate_log->commit();

  // The measured run's totals, as pgbench's final summary gives them.
  const pgbench::TransactionSums& total = stats.total();
  const double measured_s = sim::to_seconds(finished - origin);
  const std::string report = pgbench::final_summary(load, total, measured_s);
  if (options.print_progress) std::cout << report;

  RunOutcome outcome;
  outcome.stability = analysis::compute_stability(tps_series, options.threshold, total.transactions, total.skipped,
                                                  total.late);
  outcome.events = static_cast<std::int64_t>(sim.events_processed());
  outcome.simulated_seconds = sim::to_seconds(finished);

  json summary;
  summary["settings"] = sc.resolved;
  summary["pgbench"] = {{"transactions", total.transactions},
                        {"tps", measured_s > 0 ? static_cast<double>(total.transactions) / measured_s : 0.0},
                        {"latency_avg_ms", total.latency_avg_ms()},
                        {"latency_stddev_ms", total.latency_stddev_ms()},
                        {"latency_max_ms", total.latency_max_ms()},
                        {"lag_avg_ms", total.lag_avg_ms()},
                        {"lag_max_ms", total.lag_max_ms()},
                        {"skipped", total.skipped},
                        {"late", total.late},
                        {"duration_s", measured_s},
                        {"report", report}};
  summary["stability"] = stability_json(outcome.stability);
  // Named first: iterating items() of a temporary would dangle.
  const json server_views = server.summary_json(), kernel_views = kernel.summary_json();
  for (const auto& [key, value] : server_views.items()) summary[key] = value;
  for (const auto& [key, value] : kernel_views.items()) summary[key] = value;
  summary["sim"] = {{"events", outcome.events}, {"simulated_seconds", outcome.simulated_seconds}};
  analysis::write_file_atomically(dir / "summary.json", summary.dump(2) + "\n");

  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  json perf = {{"wall_seconds", outcome.wall_seconds},
               {"events", outcome.events},
               {"events_per_second", outcome.wall_seconds > 0 ? outcome.events / outcome.wall_seconds : 0.0},
               {"simulated_seconds_per_wall_second",
                outcome.wall_seconds > 0 ? outcome.simulated_seconds / outcome.wall_seconds : 0.0},
               {"transactions_per_wall_second",
                outcome.wall_seconds > 0 ? static_cast<double>(total.transactions) / outcome.wall_seconds : 0.0},
               {"peak_memory_mb", peak_memory_mb()}};
  analysis::write_file_atomically(dir / "perf.json", perf.dump(2) + "\n");
  return outcome;
}

}  // namespace ckptsim::cli
