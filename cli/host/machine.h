// cli/host/machine.h
//
// The simulated host, composed bottom up as the runner needs it: the data
// (and optional WAL) device, Linux over them, one PostgreSQL server with its
// log, and the tables `pgbench -i` created. The composition root: with
// DeviceRig (device_rig.h: one device and its block queue, for devbench and
// calibrate), the only place besides the tests that wires the layers together.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "analysis/atomic_file.h"
#include "models/disk/device.h"
#include "models/disk/io_limits.h"
#include "models/os/kernel.h"
#include "models/pgbench/tables.h"
#include "models/postgres/server.h"
#include "scenarios/scenario.h"
#include "sim/resource.h"
#include "sim/simulator.h"

namespace ckptsim::cli {

// The server's log, held in memory until the run commits it to its file, so
// that a host copied after its warmup (cli/run/warmup_group.h) gives each
// copy the lines logged so far.
struct ServerLog {
  std::filesystem::path path;
  std::string text;
  void commit() const { analysis::write_file_atomically(path, text); }
};

struct Machine {
  // postgres.log goes to `log_path` (published when the run commits it).
  Machine(const scenarios::Scenario& scenario, const std::filesystem::path& log_path);
  // The server's log from now on goes to `log_path` (the next point of a chain).
  void open_log(const std::filesystem::path& log_path);
  // The lines logged so far, and those to come, go to `log_path`.
  void move_log(const std::filesystem::path& log_path) { log->path = log_path; }
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  sim::Simulator sim;
  sim::Resource cpus;
  std::unique_ptr<disk::IoLimits> instance_limits;  // null: the instance has no limits of its own
  std::unique_ptr<disk::Device> data_device;
  std::unique_ptr<disk::Device> wal_device;  // null: WAL on the data device
  os::Kernel kernel;
  std::unique_ptr<ServerLog> log;
  postgres::Server server;
  pgbench::PgbenchTables tables;
  // The pgbench process, started after the server (its aggregate logs are named by it).
  int pgbench_pid;
};

}  // namespace ckptsim::cli
