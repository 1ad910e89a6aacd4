#include "cli/host/machine.h"

#include "models/disk/make_device.h"
#include "models/pgbench/init.h"
#include "sim/random.h"

namespace ckptsim::cli {

namespace {
// The server's log sink is set before anything can log (tables are created next).
postgres::Server& with_log(postgres::Server& server, std::unique_ptr<ServerLog>& log) {
  server.set_log_sink([&log](std::string_view line) {
    log->text += line;
    log->text += '\n';
  });
  return server;
}
}  // namespace

Machine::Machine(const scenarios::Scenario& sc, const std::filesystem::path& log_path)
    : cpus(sim, static_cast<int>(sc.hardware.cpus)),
      instance_limits(sc.hardware.instance.limited() ? std::make_unique<disk::IoLimits>(sc.hardware.instance, sim.now())
                                                     : nullptr),
      data_device(disk::make_device(sim, sc.device, sc.seed, "data", instance_limits.get())),
      wal_device(sc.hardware.wal_device.empty()
                     ? nullptr
                     : disk::make_device(sim, sc.wal_device, sc.seed, "wal", instance_limits.get())),
      kernel(sim, sc.os, os::Memory{sc.hardware.ram, postgres::shared_memory_size(sc.postgres)}, *data_device,
             wal_device.get(), sc.seed),
      log(std::make_unique<ServerLog>(ServerLog{log_path, {}})),
      server(sim, cpus, kernel, sc.postgres, sc.seed),
      tables(with_log(server, log), sc.pgbench.scale),
      pgbench_pid(server.postmaster_pid() +
                  static_cast<int>(sim::Random(sc.seed, "host/pgbench pid").uniform_int(100, 2000))) {
  pgbench::start_state(server, tables, sc.init);
}

void Machine::open_log(const std::filesystem::path& log_path) {
  log = std::make_unique<ServerLog>(ServerLog{log_path, {}});
}

}  // namespace ckptsim::cli
