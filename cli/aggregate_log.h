// cli/aggregate_log.h
//
// pgbench's --aggregate-interval log (pgbench 15's format, epoch timestamps):
// one line per interval of the measured run, written to pgbench_log.1.
#pragma once

#include <filesystem>

#include "analysis/atomic_file.h"
#include "models/pgbench/transaction_stats.h"
#include "sim/simulator.h"
#include "sim/timer.h"

namespace ckptsim::cli {

class AggregateLog {
 public:
  // The first interval ends at origin + interval.
  AggregateLog(sim::Simulator& sim, const std::filesystem::path& path, pgbench::TransactionStats& stats,
               sim::Time origin, sim::Duration interval);
  AggregateLog(const AggregateLog&) = delete;
  AggregateLog& operator=(const AggregateLog&) = delete;
  void stop() { timer_.cancel(); }
  void commit() { file_.commit(); }

 private:
  void close_interval();

  sim::Simulator& sim_;
  analysis::AtomicFile file_;
  pgbench::TransactionStats& stats_;
  sim::Duration interval_;
  sim::Time interval_start_;
  sim::Timer timer_;
};

}  // namespace ckptsim::cli
