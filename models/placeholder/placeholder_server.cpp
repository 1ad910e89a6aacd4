#include "models/placeholder/placeholder_server.h"

#include <algorithm>

#include <fmt/format.h>

namespace ckptsim::placeholder {

namespace {
// About 15 MB of tables and indexes per pgbench scale unit (100000 accounts).
constexpr sim::Bytes kDatabaseBytesPerScale = 15 * sim::kMiB;
// Memory the kernel and processes keep for themselves.
constexpr sim::Bytes kReservedRam = 512 * sim::kMiB;
}  // namespace

PlaceholderServer::PlaceholderServer(sim::Simulator& sim, Setup setup)
    : sim_(sim),
      setup_(std::move(setup)),
      cpus_(sim, static_cast<int>(setup_.cpus)),
      data_device_(sim, 1),
      wal_device_(sim, 1),
      wal_queue_(setup_.separate_wal_device ? wal_device_ : data_device_) {
  const double database = static_cast<double>(setup_.scale * kDatabaseBytesPerScale);
  const double cached = static_cast<double>(std::max<sim::Bytes>(0, setup_.ram - kReservedRam));
  miss_ratio_ = std::clamp(1.0 - cached / database, 0.0, 1.0);
}

sim::Duration PlaceholderServer::cpu_per_transaction(const std::string& builtin) const {
  if (builtin == "select-only") return 50 * sim::kMicrosecond;
  if (builtin == "simple-update") return 150 * sim::kMicrosecond;
  return 250 * sim::kMicrosecond;  // tpcb-like
}

void PlaceholderServer::start_run(const pgbench::PgbenchConfig& load, sim::Time end,
                                  pgbench::TransactionStats& stats) {
  const int run = runs_started_++;
  for (std::int64_t c = 0; c < load.clients; ++c) {
    ++clients_running_;
    sim_.spawn(client(load, end, stats, sim::Random(setup_.seed, fmt::format("placeholder/run{}/client{}", run, c))));
  }
}

sim::Process PlaceholderServer::client(pgbench::PgbenchConfig load, sim::Time end, pgbench::TransactionStats& stats,
                                       sim::Random rng) {
  const sim::Duration cpu = cpu_per_transaction(load.builtin);
  const bool writes = load.builtin != "select-only";
  // Under -R each client draws its own Poisson schedule at rate/clients.
  const sim::Duration mean_gap =
      load.rate > 0 ? static_cast<sim::Duration>(sim::kSecond * static_cast<double>(load.clients) / load.rate) : 0;
  sim::Time scheduled = sim_.now();
  for (std::int64_t done = 0; load.transactions == 0 || done < load.transactions; ++done) {
    if (load.rate > 0) {
      scheduled += rng.exponential_duration(mean_gap);
      if (scheduled >= end && load.transactions == 0) break;
      if (scheduled > sim_.now()) co_await sim_.sleep_until(scheduled);
      if (load.latency_limit > 0 && sim_.now() - scheduled > load.latency_limit) {
        stats.record_skipped();
        continue;
      }
    } else {
      if (sim_.now() >= end && load.transactions == 0) break;
      scheduled = sim_.now();
    }
    const sim::Time started = sim_.now();
    co_await cpus_.use(cpu);
    if (rng.uniform01() < miss_ratio_) {
      ++data_reads_;
      co_await data_device_.use(setup_.data_device.read_latency);
    }
    if (writes) {
      ++wal_writes_;
      co_await wal_queue_.use(setup_.wal_device.write_latency);
    }
    const sim::Duration latency = sim_.now() - scheduled;
    stats.record(latency, started - scheduled, load.latency_limit > 0 && latency > load.latency_limit);
  }
  --clients_running_;
}

void PlaceholderServer::add_system_columns(sim::Table& system) {
  struct Last {
    sim::Duration cpu_busy = 0, data_busy = 0, wal_busy = 0;
    std::int64_t reads = 0, writes = 0;
  };
  // Counters before the first interval (a warmup may have run) are not this run's.
  auto last = std::make_shared<Last>(Last{cpus_.busy_time(), data_device_.busy_time(), wal_queue_.busy_time(),
                                          data_reads_, wal_writes_});
  system.add_source({"model", "cpu_util_pct", "data_r_s", "data_util_pct", "wal_w_s", "wal_util_pct"},
                    [this, last](const sim::Interval& iv, std::span<sim::Cell> cells) {
                      const double secs = sim::to_seconds(iv.end - iv.start);
                      auto pct = [&](sim::Duration busy, sim::Duration before, double units) {
                        return secs > 0 ? 100.0 * sim::to_seconds(busy - before) / (secs * units) : 0.0;
                      };
                      cells[0] = std::string("placeholder");
                      cells[1] = pct(cpus_.busy_time(), last->cpu_busy, static_cast<double>(setup_.cpus));
                      cells[2] = secs > 0 ? static_cast<double>(data_reads_ - last->reads) / secs : 0.0;
                      cells[3] = pct(data_device_.busy_time(), last->data_busy, 1);
                      cells[4] = secs > 0 ? static_cast<double>(wal_writes_ - last->writes) / secs : 0.0;
                      cells[5] = pct(wal_queue_.busy_time(), last->wal_busy, 1);
                      *last = {cpus_.busy_time(), data_device_.busy_time(), wal_queue_.busy_time(), data_reads_,
                               wal_writes_};
                    });
}

}  // namespace ckptsim::placeholder
