// cli/report/aggregate_log.h
//
// pgbench's --aggregate-interval logs (pgbench.c doLog / logAgg): one file per
// pgbench thread, pgbench_log.PID for thread 0 and pgbench_log.PID.N for
// thread N, each with one line per interval of the measured run (epoch
// interval starts), in the format of the chosen version (report.h).
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "analysis/atomic_file.h"
#include "models/pgbench/pgbench_config.h"
#include "models/pgbench/transaction_stats.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::cli {

class AggregateLog {
 public:
  // The first interval ends at origin + config.aggregate_interval.
  AggregateLog(sim::Simulator& sim, const std::filesystem::path& dir, int pgbench_pid, int version_num,
               pgbench::TransactionStats& stats, const pgbench::PgbenchConfig& config, sim::Time origin);
  AggregateLog(const AggregateLog&) = delete;
  AggregateLog& operator=(const AggregateLog&) = delete;
  void stop() { timer_.cancel(); }
  void commit();

 private:
  void close_interval();

  sim::Simulator& sim_;
  std::vector<std::unique_ptr<analysis::AtomicFile>> files_;  // one per thread
  int version_num_;
  pgbench::TransactionStats& stats_;
  const pgbench::PgbenchConfig& config_;
  sim::Time interval_start_;
  sim::Timer timer_;
};

}  // namespace ckptsim::cli
