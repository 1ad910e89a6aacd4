// models/placeholder/placeholder_server.h
//
// PLACEHOLDER MODEL. It stands in for the whole stack (pgbench -> PostgreSQL
// -> Linux -> devices) until the real models land, so that the chain from a
// scenario to its CSVs, summary and plots works and is tested end to end.
// Everything it prints is labelled "placeholder".
//
// What it does: each pgbench client runs transactions one after the other
// (or on pgbench's Poisson schedule under `rate`, skipping those already
// later than `latency_limit`). A transaction takes a CPU slice on one of
// hardware.cpus cores, one random read of the data device when its account
// page is not in RAM (uniform access: the miss ratio is the share of the
// database that does not fit), and, unless it is select-only, one
// synchronous write of the WAL device at commit. Each device serves one
// request at a time.
//
// What it leaves out: everything the project exists for: shared buffers,
// checkpoints, the page cache, writeback, device internals, group commit,
// pgbench threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/disk/device_config.h"
#include "models/pgbench/pgbench_config.h"
#include "models/pgbench/transaction_stats.h"
#include "models/postgres/postgres_config.h"
#include "sim/process.h"
#include "sim/random.h"
#include "sim/sampler.h"
#include "sim/simulator.h"
#include "sim/sync.h"

namespace ckptsim::placeholder {

struct Setup {
  std::int64_t cpus = 8;
  sim::Bytes ram = 16 * sim::kGiB;
  disk::DeviceConfig data_device;
  disk::DeviceConfig wal_device;
  bool separate_wal_device = false;  // else WAL shares the data device's queue
  postgres::PostgresConfig postgres;
  std::int64_t scale = 10;
  std::uint64_t seed = 1;
};

class PlaceholderServer {
 public:
  PlaceholderServer(sim::Simulator& sim, Setup setup);

  // Starts one pgbench run (the warmup or the measured one): its clients
  // start now and stop starting transactions at `end` or, with
  // `transactions`, after that many each. `stats` receives every transaction.
  void start_run(const pgbench::PgbenchConfig& load, sim::Time end, pgbench::TransactionStats& stats);
  // True once every client of the current run has finished.
  bool run_finished() const { return clients_running_ == 0; }

  // Columns of system.csv that this model can fill.
  void add_system_columns(sim::Table& system);

  double miss_ratio() const { return miss_ratio_; }

 private:
  sim::Process client(pgbench::PgbenchConfig load, sim::Time end, pgbench::TransactionStats& stats,
                      sim::Random rng);
  sim::Duration cpu_per_transaction(const std::string& builtin) const;

  sim::Simulator& sim_;
  Setup setup_;
  sim::Resource cpus_;
  sim::Resource data_device_;
  sim::Resource wal_device_;
  sim::Resource& wal_queue_;  // wal_device_ or data_device_
  double miss_ratio_ = 0;
  int runs_started_ = 0;
  std::int64_t clients_running_ = 0;
  std::int64_t data_reads_ = 0;
  std::int64_t wal_writes_ = 0;
};

}  // namespace ckptsim::placeholder
