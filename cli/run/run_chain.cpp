#include "cli/run/run_chain.h"

#include <chrono>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "cli/folder/run_files.h"
#include "cli/folder/stop.h"

namespace ckptsim::cli {

namespace {

// pgbench -T exits once its in-flight transactions are done, and only then
// does the script start the next one. A stop request ends the wait (the next
// point then stops at once).
void wait_for_exit(sim::Simulator& sim, pgbench::Pgbench& bench, sim::Duration step) {
  bench.stop_simulator_when_finished();
  while (!bench.finished() && stop_requested() == StopReason::none) sim.run_until(sim.now() + step);
}

}  // namespace

ChainHost::~ChainHost() = default;

nlohmann::ordered_json ChainHost::state() const {
  Machine& m = *host_.machine;
  const postgres::BufferPool& pool = m.server.buffer_pool();
  std::int64_t dirty_buffers = 0;
  for (postgres::BufferId id = 0; id < pool.size(); ++id) dirty_buffers += pool.desc(id).dirty ? 1 : 0;
  return {{"dirty_pages", m.kernel.dirty_pages()},
          {"writeback_pages", m.kernel.writeback_pages()},
          {"dirty_buffers", dirty_buffers},
          {"history_rows", m.tables.history_rows(m.server)},
          {"wal_lsn_mb", static_cast<double>(m.server.wal().insert_lsn()) / static_cast<double>(sim::kMiB)},
          {"checkpoint_phase", sim::enum_name(postgres::kCheckpointPhaseNames, m.server.checkpointer().phase())},
          {"simulated_s", sim::to_seconds(m.sim.now())}};
}

RunOutcome ChainHost::run_next(const scenarios::Scenario& sc, const std::filesystem::path& dir,
                               const RunOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::filesystem::create_directories(dir);
  analysis::write_file_atomically(dir / run_files::kRunRecord, options.record);
  std::int64_t events_before = 0;
  if (!host_.machine) {
    host_ = start_host(sc, dir, options);
    if (!host_.machine) return setup_stopped();
  } else {
    Machine& m = *host_.machine;
    events_before = static_cast<std::int64_t>(m.sim.events_processed());
    m.open_log(dir / run_files::kPostgresLog);  // the server's lines from here on are this point's
    if (previous_->resolved.at("postgres") != sc.resolved.at("postgres")) m.server.reload(sc.postgres);
  }
  Machine& m = *host_.machine;
  const std::size_t position = benches_.size();
  nlohmann::ordered_json start_state = state();
  m.server.reset_stats();
  benches_.push_back(std::make_unique<pgbench::Pgbench>(m.sim, m.cpus, m.server, m.tables, sc.pgbench, sc.seed,
                                                        position == 0 ? "run" : fmt::format("run{}", position + 1)));
  previous_ = &sc;
  pgbench::Pgbench& bench = *benches_.back();
  const MeasureContext context{.pgbench_pid = m.pgbench_pid + static_cast<int>(position),
                               .events_before = events_before,
                               .wall_start = wall_start,
                               .start_state = std::move(start_state),
                               .at_end = [this, &bench, &sc] {
                                 wait_for_exit(host_.machine->sim, bench, sc.pgbench.progress);
                                 return state();
                               }};
  return measure_point(m, *benches_.back(), sc, dir, options, context);
}

}  // namespace ckptsim::cli
