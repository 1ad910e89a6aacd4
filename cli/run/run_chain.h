// cli/run/run_chain.h
//
// A chained grid's host (scenarios/chain.h): one simulated host, built and
// warmed up once, on which the points run one after another, each a new
// pgbench started from the state the previous one left, as a test script that
// loops over settings without re-initialising runs them (E1's cp_test.sh).
//
// Between two points, as the script would: at the end of a point its pgbench
// finishes its in-flight transactions (pgbench -T waits for them before it
// exits; the point's postgres.log and checkpoints.csv include that time, its
// progress.csv and figures do not), then the server is reloaded when the
// PostgreSQL settings differ (Server::reload: pg_ctl reload), and the
// statistics are reset (pg_stat_reset); no simulated time passes between the
// two points. Each point's
// pgbench is a new process: a new pid (its aggregate logs' names) and random
// streams named for its place ("run" for the first, "run2", "run3", ...), so
// a chain is a pure function of the scenario.
//
// Each point's folder is written as an independent point's is; its
// summary.json adds "start_state", what the previous point (or, for the
// first, the warmup) left, and "end_state", what it leaves to the next (so a
// point's end_state is the next one's start_state), with the keys:
//   dirty_pages       the page cache's Dirty pages (4 kB, /proc/meminfo's Dirty)
//   writeback_pages   pages under writeback (/proc/meminfo's Writeback)
//   dirty_buffers     shared buffers marked dirty
//   history_rows      rows of pgbench_history
//   wal_lsn_mb        the WAL insert position, in MB from the cluster's start
//   checkpoint_phase  idle, write or sync
//   simulated_s       the host's clock (seconds since it booted)
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "cli/run/run_point.h"

namespace ckptsim::cli {

class ChainHost {
 public:
  ChainHost() = default;
  ChainHost(const ChainHost&) = delete;
  ChainHost& operator=(const ChainHost&) = delete;
  ~ChainHost();

  // Runs the chain's next point into `dir` (the first builds the host and runs
  // the warmup). A stop request ends it as it ends a single run.
  RunOutcome run_next(const scenarios::Scenario& scenario, const std::filesystem::path& dir, const RunOptions& options);

  // What the host holds now, as "start_state" reports it.
  nlohmann::ordered_json state() const;

 private:
  Host host_;
  std::vector<std::unique_ptr<pgbench::Pgbench>> benches_;  // every point's: their last transactions outlive them
  const scenarios::Scenario* previous_ = nullptr;
};

}  // namespace ckptsim::cli
