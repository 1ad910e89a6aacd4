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
#include "models/pgbench/transaction_stats.h"
#include "models/placeholder/placeholder_server.h"
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

// pgbench 15's -P line: "progress: 5.0 s, 430.5 tps, lat 8.842 ms stddev 6.070, 0 failed[, lag X ms][, N skipped]".
std::string progress_line(double time_s, double tps, const pgbench::TransactionSums& s,
                          const pgbench::PgbenchConfig& load) {
  std::string line = fmt::format("progress: {:.1f} s, {:.1f} tps, lat {:.3f} ms stddev {:.3f}, 0 failed", time_s, tps,
                                 s.latency_avg_ms(), s.latency_stddev_ms());
  if (load.rate > 0) line += fmt::format(", lag {:.3f} ms", s.lag_avg_ms());
  if (load.latency_limit > 0) line += fmt::format(", {} skipped", s.skipped);
  return line;
}

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

  sim::Simulator sim;
  placeholder::PlaceholderServer server(
      sim, placeholder::Setup{.cpus = sc.hardware.cpus,
                              .ram = sc.hardware.ram,
                              .data_device = sc.device,
                              .wal_device = sc.wal_device,
                              .separate_wal_device = !sc.hardware.wal_device.empty(),
                              .postgres = sc.postgres,
                              .scale = sc.pgbench.scale,
                              .seed = sc.seed});
  const sim::Duration period = sc.pgbench.progress;
  constexpr sim::Time kForever = std::numeric_limits<sim::Time>::max();

  // Warmup: a pgbench run before the measured one, not counted. Its clients'
  // last transactions may finish after it ends, so its stats live as long as the run.
  pgbench::TransactionStats warmup_stats;
  if (sc.warmup.duration > 0 || sc.warmup.transactions > 0) {
    const sim::Time end = sc.warmup.transactions > 0 ? kForever : sc.warmup.duration;
    server.start_run(sc.warmup, end, warmup_stats);
    if (sc.warmup.transactions > 0) {
      while (!server.run_finished()) sim.run_until(sim.now() + period);
    } else {
      sim.run_until(end);
    }
  }

  // The measured run; progress intervals count from its start.
  const sim::Time origin = sim.now();
  const pgbench::PgbenchConfig& load = sc.pgbench;
  const bool by_count = load.transactions > 0;
  const sim::Time end = by_count ? kForever : origin + load.duration;
  pgbench::TransactionStats stats;
  std::vector<double> tps_series;

  sim::Sampler sampler(sim, period);
  sim::Table& progress = sampler.table("progress");
  progress.add_source({"tps", "latency_avg_ms", "latency_stddev_ms", "lag_avg_ms", "skipped", "late"},
                      [&](const sim::Interval& iv, std::span<sim::Cell> cells) {
                        const pgbench::TransactionSums s = stats.take_interval();
                        const double secs = sim::to_seconds(iv.end - iv.start);
                        const double tps = secs > 0 ? static_cast<double>(s.transactions) / secs : 0.0;
                        tps_series.push_back(tps);
                        cells[0] = tps;
                        cells[1] = s.latency_avg_ms();
                        cells[2] = s.latency_stddev_ms();
                        cells[3] = s.lag_avg_ms();
                        cells[4] = s.skipped;
                        cells[5] = s.late;
                        if (options.print_progress)
                          std::cout << progress_line(sim::to_seconds(iv.end - origin), tps, s, load) << '\n';
                        if (options.fraction && !by_count)
                          options.fraction->store(sim::to_seconds(iv.end - origin) / sim::to_seconds(load.duration));
                      });
  sim::Table& system = sampler.table("system");
  server.add_system_columns(system);
  TableCsv progress_csv(progress, dir / "progress.csv");
  TableCsv system_csv(system, dir / "system.csv");

  server.start_run(load, end, stats);
  sampler.start(origin);
  if (by_count) {
    while (!server.run_finished()) sim.run_until(sim.now() + period);
    sampler.close_partial();
  } else {
    sim.run_until(end);
  }
  sampler.stop();
  const sim::Time finished = sim.now();

  progress_csv.commit();
  system_csv.commit();

  // The measured run's totals, as pgbench's final summary gives them.
  const pgbench::TransactionSums& total = stats.total();
  const double measured_s = sim::to_seconds(finished - origin);
  RunOutcome outcome;
  outcome.stability = analysis::compute_stability(tps_series, options.threshold, total.transactions, total.skipped,
                                                  total.late);
  outcome.events = static_cast<std::int64_t>(sim.events_processed());
  outcome.simulated_seconds = sim::to_seconds(finished);

  json summary;
  summary["model"] = "placeholder: CPU + one device read per cache miss + one WAL write per commit";
  summary["settings"] = sc.resolved;
  summary["pgbench"] = {{"transactions", total.transactions},
                        {"tps", measured_s > 0 ? static_cast<double>(total.transactions) / measured_s : 0.0},
                        {"latency_avg_ms", total.latency_avg_ms()},
                        {"latency_stddev_ms", total.latency_stddev_ms()},
                        {"lag_avg_ms", total.lag_avg_ms()},
                        {"skipped", total.skipped},
                        {"late", total.late}};
  summary["stability"] = stability_json(outcome.stability);
  summary["sim"] = {{"events", outcome.events}, {"simulated_seconds", outcome.simulated_seconds}};
  analysis::write_file_atomically(dir / "summary.json", summary.dump(2) + "\n");

  analysis::write_file_atomically(
      dir / "postgres.log",
      "LOG:  placeholder model: no checkpoints, bgwriter or WAL are simulated yet, so there is nothing to log\n");

  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  json perf = {{"wall_seconds", outcome.wall_seconds},
               {"events", outcome.events},
               {"events_per_second", outcome.wall_seconds > 0 ? outcome.events / outcome.wall_seconds : 0.0},
               {"simulated_seconds_per_wall_second",
                outcome.wall_seconds > 0 ? outcome.simulated_seconds / outcome.wall_seconds : 0.0},
               {"peak_memory_mb", peak_memory_mb()}};
  analysis::write_file_atomically(dir / "perf.json", perf.dump(2) + "\n");
  return outcome;
}

}  // namespace ckptsim::cli
