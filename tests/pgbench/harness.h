// A whole machine for pgbench tests: an NVMe-class SSD, Linux, PostgreSQL 15
// and the pgbench tables, so that the load model is tested over the real
// layers below it (only the load's own behaviour is asserted).
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "models/disk/make_device.h"
#include "models/os/kernel.h"
#include "models/pgbench/init.h"
#include "models/pgbench/pgbench.h"
#include "models/pgbench/tables.h"
#include "models/postgres/server.h"
#include "sim/simulator.h"
#include "sim/sync.h"

namespace ckptsim::testing {

inline disk::DeviceConfig fast_ssd() {
  disk::DeviceConfig d;
  d.kind = disk::Kind::Ssd;
  d.interface = disk::Interface::Nvme;
  d.queue_depth = 1023;
  d.capacity = 100 * sim::kGiB;
  return d;
}

// The built-in select-only script, -M prepared, 10 s: the lightest load.
inline pgbench::PgbenchConfig select_only(std::int64_t clients, std::int64_t threads) {
  pgbench::PgbenchConfig c;
  c.builtin = pgbench::Builtin::SelectOnly;
  c.scale = 1;
  c.clients = clients;
  c.threads = threads;
  c.protocol = pgbench::Protocol::Prepared;
  c.duration = 10 * sim::kSecond;
  return c;
}

// With `init`, the host starts as after pgbench -i (pgbench::start_state); without, its page cache is empty.
struct Machine {
  using DeviceFactory = std::function<std::unique_ptr<disk::Device>(sim::Simulator&)>;

  explicit Machine(int cpus = 8, std::int64_t scale = 1, postgres::PostgresConfig pg = {},
                   sim::Bytes ram = 4 * sim::kGiB, std::optional<pgbench::InitConfig> init = std::nullopt)
      : Machine([](sim::Simulator& s) { return disk::make_device(s, fast_ssd(), 1, "data"); }, os::OsConfig{}, init,
                cpus, scale, pg, ram) {}
  // A host with its own data device and kernel settings.
  Machine(const DeviceFactory& make_data_device, const os::OsConfig& os, std::optional<pgbench::InitConfig> init,
          int cpus = 8, std::int64_t scale = 1, postgres::PostgresConfig pg = {}, sim::Bytes ram = 4 * sim::kGiB)
      : cores(sim, cpus),
        device(make_data_device(sim)),
        kernel(sim, os, os::Memory{ram, pg.shared_buffers}, *device, nullptr, 1),
        server(sim, cores, kernel, pg, 1),
        tables(server, scale) {
    if (init) pgbench::start_state(server, tables, *init);
    server.start();
  }
  // Runs one pgbench invocation to its end and returns it.
  std::unique_ptr<pgbench::Pgbench> run(const pgbench::PgbenchConfig& config, const char* name = "run") {
    auto bench = std::make_unique<pgbench::Pgbench>(sim, cores, server, tables, config, 1, name);
    const sim::Time end = config.transactions > 0 ? std::numeric_limits<sim::Time>::max() : sim.now() + config.duration;
    bench->start(end);
    if (config.transactions > 0) {
      while (!bench->finished()) sim.run_until(sim.now() + sim::kSecond);
    } else {
      sim.run_until(end);
    }
    return bench;
  }

  sim::Simulator sim;
  sim::Resource cores;
  std::unique_ptr<disk::Device> device;
  os::Kernel kernel;
  postgres::Server server;
  pgbench::PgbenchTables tables;
};

}  // namespace ckptsim::testing
