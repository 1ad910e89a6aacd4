#include "cli/run/run_point.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "analysis/csv.h"
#include "cli/folder/run_files.h"
#include "cli/folder/stop.h"
#include "cli/host/machine.h"
#include "cli/report/aggregate_log.h"
#include "cli/report/backend_waits.h"
#include "cli/report/crash_report.h"
#include "cli/report/run_profile.h"
#include "cli/report/run_summary.h"
#include "cli/report/table_csv.h"
#include "models/disk/throttled_volume.h"
#include "models/pgbench/pgbench.h"
#include "models/pgbench/report.h"
#include "models/postgres/log_format.h"
#include "sim/interrupt.h"
#include "sim/sampler.h"

namespace ckptsim::cli {

namespace {

constexpr sim::Time kForever = std::numeric_limits<sim::Time>::max();

// Runs a pgbench load to its end: -t until every client is done, -T for its
// duration, one progress period at a time, so that a stop request (a signal,
// --max-wall) ends it after the current interval's rows. Returns false then.
// `crash_at`, if not kForever, ends it there (a power loss).
bool run_to_end(sim::Simulator& sim, pgbench::Pgbench& bench, const pgbench::PgbenchConfig& load, sim::Duration period,
                sim::Time crash_at = kForever) {
  if (load.transactions > 0) {
    while (!bench.finished() && sim.now() < crash_at) {
      if (stop_requested() != StopReason::none) return false;
      sim.run_until(std::min(crash_at, sim.now() + period));
    }
    return true;
  }
  const sim::Time end = std::min(crash_at, sim.now() + load.duration);
  for (sim::Time t = sim.now(); t < end;) {
    if (stop_requested() != StopReason::none) return false;
    t = std::min(end, t + period);
    sim.run_until(t);
  }
  return true;
}

// A -P line goes where pgbench writes it, stderr (for a single run), and to pgbench.log.
void emit_progress_line(std::string_view line, const RunOptions& options, std::string& pgbench_log) {
  pgbench_log += line;
  if (options.print_progress) std::cerr << line;
}

// progress.csv: pgbench's -P figures per interval, the simulator's own clock.
// The -P line of each interval comes from here too, unless pgbench.progress_file
// has thread 0 print them itself, late or not at all when it was stuck (pgbench.h).
void add_progress_columns(sim::Table& progress, pgbench::TransactionStats& stats, std::vector<double>& tps_series,
                          const pgbench::PgbenchConfig& load, int major, sim::Time origin, const RunOptions& options,
                          std::string& pgbench_log) {
  const bool by_count = load.transactions > 0;
  progress.add_source({"tps", "latency_avg_ms", "latency_stddev_ms", "lag_avg_ms", "skipped", "late", "latency_p50_ms",
                       "latency_p90_ms", "latency_p99_ms", "latency_max_ms"},
                      [&, major, origin, by_count](const sim::Interval& iv, std::span<sim::Cell> cells) {
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
                        if (!load.progress_file) {
                          emit_progress_line(
                              pgbench::progress_line(major, sim::to_seconds(iv.end - origin), tps, s, load) + '\n',
                              options, pgbench_log);
                        }
                        if (options.fraction && !by_count)
                          options.fraction->store(sim::to_seconds(iv.end - origin) / sim::to_seconds(load.duration));
                      });
}

// checkpoints.csv: each checkpoint of the measured run on progress.csv's clock
// (seconds from the measured run's start), for the plots' shading. A
// checkpoint still running at the end has its phase ends and cause empty.
void write_checkpoints_csv(const std::filesystem::path& dir, postgres::Server& server, sim::Time origin) {
  analysis::CsvWriter csv(dir / run_files::kCheckpointsCsv,
                          {"start_s", "write_end_s", "sync_end_s", "cause", "buffers", "distance_kb"});
  for (const postgres::CheckpointRecord& c : server.checkpoints_since_reset()) {
    const double start = sim::to_seconds(c.start - origin);
    const bool done = c.total_s > 0;
    csv.row({analysis::format_fixed(start, 3), done ? analysis::format_fixed(start + c.write_s, 3) : "",
             done ? analysis::format_fixed(start + c.write_s + c.sync_s, 3) : "", c.cause, std::to_string(c.buffers),
             std::to_string(c.distance_kb)});
  }
  const postgres::Checkpointer& running = server.checkpointer();
  if (running.phase() != postgres::CheckpointPhase::Idle && running.write_phase_start() >= origin) {
    const double start = sim::to_seconds(running.write_phase_start() - origin);
    const std::string write_end = running.phase() == postgres::CheckpointPhase::Sync
                                      ? analysis::format_fixed(sim::to_seconds(running.write_phase_end() - origin), 3)
                                      : "";
    csv.row({analysis::format_fixed(start, 3), write_end, "", "", "", ""});
  }
  csv.commit();
}

// Invariants of the models, checked at the end of every run.
void check_invariants(const Machine& m) {
  std::string why;
  if (!m.kernel.check_accounting(&why)) throw std::runtime_error("page accounting broken: " + why);
  if (!m.server.check_durability(&why)) throw std::runtime_error("durability invariant broken: " + why);
}

// The warmup: a pgbench run before the measured one, not counted. Its object
// must outlive it: its last transactions may finish after it ends.
// A stop request ends it after the current interval (start_host says so).
std::unique_ptr<pgbench::Pgbench> run_warmup(Machine& m, const scenarios::Scenario& sc) {
  std::unique_ptr<pgbench::Pgbench> warmup;
  if (sc.warmup.duration > 0 || sc.warmup.transactions > 0) {
    warmup = std::make_unique<pgbench::Pgbench>(m.sim, m.cpus, m.server, m.tables, sc.warmup, sc.seed, "warmup");
    warmup->start(sc.warmup.transactions > 0 ? kForever : m.sim.now() + sc.warmup.duration);
    run_to_end(m.sim, *warmup, sc.warmup, sc.pgbench.progress);
  }
  return warmup;
}

// What records the measured run: the sampler's four tables, each bound to
// its CSV (written to a temp name, renamed at commit), and the aggregate log.
struct Recorders {
  std::filesystem::path dir_;
  sim::Sampler sampler;
  BackendWaits waits;
  std::string pgbench_log;  // the -P lines, as pgbench -P 1 2> pgbench.log would keep them
  TableCsv progress_csv, system_csv, waits_csv, io_layers_csv;
  std::optional<AggregateLog> aggregate_log;

  Recorders(Machine& m, pgbench::Pgbench& bench, const scenarios::Scenario& sc, std::vector<double>& tps_series,
            sim::Time origin, const std::filesystem::path& dir, const RunOptions& options, int pgbench_pid)
      : dir_(dir),
        sampler(m.sim, sc.pgbench.progress),
        waits(bench.backends()),
        progress_csv(wired_progress(bench, sc, tps_series, origin, options), dir / run_files::kProgressCsv),
        system_csv(wired_system(m), dir / run_files::kSystemCsv),
        waits_csv(wired_waits(), dir / run_files::kWaitsCsv),
        io_layers_csv(wired_layers(), dir / run_files::kIoLayersCsv) {
    if (sc.pgbench.aggregate_interval > 0) {
      aggregate_log.emplace(m.sim, dir, pgbench_pid, pgbench::version_num(sc.postgres.version), bench.stats(),
                            sc.pgbench, origin);
    }
  }
  void stop() {
    sampler.stop();
    if (aggregate_log) aggregate_log->stop();
  }
  void commit() {
    progress_csv.commit();
    system_csv.commit();
    waits_csv.commit();
    io_layers_csv.commit();
    if (aggregate_log) aggregate_log->commit();
    analysis::write_file_atomically(dir_ / run_files::kPgbenchLog, pgbench_log);
  }

 private:
  sim::Table& wired_progress(pgbench::Pgbench& bench, const scenarios::Scenario& sc, std::vector<double>& tps_series,
                             sim::Time origin, const RunOptions& options) {
    sim::Table& progress = sampler.table("progress");
    add_progress_columns(progress, bench.stats(), tps_series, sc.pgbench, pgbench::major_version(sc.postgres.version),
                         origin, options, pgbench_log);
    bench.on_progress_line([this, &options](std::string_view line) { emit_progress_line(line, options, pgbench_log); });
    add_timestamp_column(progress);
    return progress;
  }
  sim::Table& wired_system(Machine& m) {
    sim::Table& system = sampler.table("system");
    m.kernel.add_system_columns(system);
    // A cloud volume's budget as the provider counts it (a WAL volume's after wal_).
    if (auto* volume = dynamic_cast<disk::ThrottledVolume*>(m.data_device.get()))
      volume->add_system_columns(system, "");
    if (auto* volume = dynamic_cast<disk::ThrottledVolume*>(m.wal_device.get()))
      volume->add_system_columns(system, "wal_");
    m.server.add_system_columns(system);
    add_timestamp_column(system);
    return system;
  }
  // The interval's end as postgres.log stamps its lines: one clock for the CSVs and the log.
  static void add_timestamp_column(sim::Table& table) {
    table.add_source({"timestamp"}, [](const sim::Interval& iv, std::span<sim::Cell> cells) {
      cells[0] = postgres::log_timestamp(iv.end);
    });
  }
  sim::Table& wired_waits() {
    waits.add_wait_columns(sampler.table("waits"));
    return sampler.table("waits");
  }
  sim::Table& wired_layers() {
    waits.add_layer_columns(sampler.table("io_layers"));
    return sampler.table("io_layers");
  }
};

}  // namespace

RunOutcome run_point(const scenarios::Scenario& sc, const std::filesystem::path& dir, const RunOptions& options) {
  return run_point(sc, sc, dir, options);
}

RunOutcome run_point(const scenarios::Scenario& sc, const scenarios::Scenario& host_settings,
                     const std::filesystem::path& dir, const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::filesystem::create_directories(dir);
  analysis::write_file_atomically(dir / run_files::kRunRecord, options.record);
  // Declared before the host: the profile outlives the Simulator that charges it.
  std::optional<sim::Profile> profile;
  if (options.profile) profile.emplace(make_run_profile());
  const sim::ActiveProfile active(profile ? &*profile : nullptr);
  Host host = start_host(host_settings, dir, options);
  if (!host.machine) return setup_stopped();
  return measure_on_host(*host.machine, host_settings, sc, dir, options, wall_start, profile ? &*profile : nullptr);
}

RunOutcome measure_on_host(Machine& m, const scenarios::Scenario& host_settings, const scenarios::Scenario& sc,
                           const std::filesystem::path& dir, const RunOptions& options,
                           std::chrono::steady_clock::time_point wall_start, const sim::Profile* profile) {
  m.move_log(dir / run_files::kPostgresLog);
  // The point's own reloadable settings, as pg_ctl reload would bring them after the warmup.
  if (host_settings.resolved.at("postgres") != sc.resolved.at("postgres")) m.server.reload(sc.postgres);
  m.server.reset_stats();
  pgbench::Pgbench bench(m.sim, m.cpus, m.server, m.tables, sc.pgbench, sc.seed, "run");
  return measure_point(m, bench, sc, dir, options,
                       {.pgbench_pid = m.pgbench_pid, .wall_start = wall_start, .profile = profile});
}

RunOutcome setup_stopped() {
  RunOutcome outcome;
  outcome.stopped_by = stop_requested();
  return outcome;
}

Host start_host(const scenarios::Scenario& sc, const std::filesystem::path& dir, const RunOptions& options) {
  Host host;
  try {
    host.machine = std::make_unique<Machine>(sc, dir / run_files::kPostgresLog);
  } catch (const sim::Interrupted&) {
    // Stopped while building pgbench -i's tables: nothing was measured, so the
    // folder holds run.json and a summary.json that says so.
    write_setup_stopped_summary(dir, sc, stop_description(stop_requested()), "setup");
    return host;
  }
  Machine& m = *host.machine;
  if (options.crash_at) m.server.wal().ledger().track_acknowledged_commits();  // from the first commit on
  m.server.start();
  host.warmup = run_warmup(m, sc);
  if (stop_requested() != StopReason::none) {
    // Stopped before the measured run's first interval: nothing to measure, as for the setup.
    write_setup_stopped_summary(dir, sc, stop_description(stop_requested()), host.warmup ? "warmup" : "setup");
    return {};  // the warmup's pgbench goes before the machine it runs on
  }
  return host;
}

RunOutcome measure_point(Machine& m, pgbench::Pgbench& bench, const scenarios::Scenario& sc,
                         const std::filesystem::path& dir, const RunOptions& options, const MeasureContext& context) {
  sim::Simulator& sim = m.sim;

  // The measured run; progress intervals count from its start.
  const sim::Time origin = sim.now();
  const pgbench::PgbenchConfig& load = sc.pgbench;
  const bool by_count = load.transactions > 0;
  const pgbench::TransactionStats& stats = bench.stats();
  std::vector<double> tps_series;
  Recorders rec(m, bench, sc, tps_series, origin, dir, options, context.pgbench_pid);

  bench.start(by_count ? kForever : origin + load.duration);
  if (by_count) bench.stop_simulator_when_finished();
  rec.sampler.start(origin);
  const sim::Time crash_at = options.crash_at ? origin + *options.crash_at : kForever;
  const bool ran_to_end = run_to_end(sim, bench, load, load.progress, crash_at);
  // A -t run ends when its last client is done, inside an interval: pgbench
  // reports no -P line and logs no aggregate for that unfinished interval.
  if (ran_to_end && options.crash_at) write_crash_report(dir, sc, m, sim::to_seconds(*options.crash_at));
  rec.stop();
  const sim::Time finished = sim.now();
  // The measured run's totals, as pgbench's final summary gives them, taken
  // before a chain's point lets its pgbench finish its last transactions.
  const pgbench::TransactionSums total = stats.total();
  const pgbench::LatencyHistogram latency = stats.total_histogram();
  const nlohmann::ordered_json wait_totals = rec.waits.summary_json();
  std::optional<nlohmann::ordered_json> end_state;
  if (context.at_end) end_state = context.at_end();
  check_invariants(m);
  rec.commit();
  write_checkpoints_csv(dir, m.server, origin);
  m.log->commit();

  const double measured_s = sim::to_seconds(finished - origin);
  const std::string report = pgbench::final_summary(pgbench::version_num(sc.postgres.version), load, total, measured_s);
  if (options.print_progress) std::cout << report;

  RunOutcome outcome;
  outcome.stability =
      analysis::compute_stability(tps_series, options.threshold, total.transactions, total.skipped, total.late);
  outcome.events = static_cast<std::int64_t>(sim.events_processed()) - context.events_before;
  outcome.simulated_seconds = sim::to_seconds(finished);
  if (!ran_to_end) outcome.stopped_by = stop_requested();
  const MeasuredRun run{total,
                        latency,
                        measured_s,
                        report,
                        wait_totals,
                        ran_to_end ? std::string() : stop_description(outcome.stopped_by),
                        options.crash_at ? std::optional<double>(sim::to_seconds(*options.crash_at)) : std::nullopt,
                        origin,
                        context.start_state,
                        end_state};
  outcome.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - context.wall_start).count();
  write_perf(dir, outcome, run, context.profile);
  if (context.profile != nullptr && options.print_progress)
    std::cout << "\nwhere the wall time went (run --profile):\n"
              << profile_table(*context.profile, outcome.wall_seconds);
  write_summary(dir, sc, run, outcome, m);  // last: its "complete" vouches for every other file
  return outcome;
}

}  // namespace ckptsim::cli
