// models/pgbench/pgbench_config.h
//
// The load, with pgbench's option names: the `pgbench` section of a scenario
// is the measured run, the `warmup` section a run before it that is not
// counted (same keys; its scale is the measured run's).
#pragma once

#include <cstdint>
#include <string>

#include "sim/enum_names.h"
#include "sim/time.h"

namespace ckptsim::pgbench {

// -b: tpcb-like, simple-update (-N), select-only (-S).
enum class Builtin : std::uint8_t { TpcbLike, SimpleUpdate, SelectOnly };
inline constexpr sim::EnumNames<Builtin, 3> kBuiltinNames{
    {{"tpcb-like", Builtin::TpcbLike}, {"simple-update", Builtin::SimpleUpdate}, {"select-only", Builtin::SelectOnly}}};

// -M: simple, extended, prepared.
enum class Protocol : std::uint8_t { Simple, Extended, Prepared };
inline constexpr sim::EnumNames<Protocol, 3> kProtocolNames{
    {{"simple", Protocol::Simple}, {"extended", Protocol::Extended}, {"prepared", Protocol::Prepared}}};

struct PgbenchConfig {
  Builtin builtin = Builtin::TpcbLike;         // -b
  std::int64_t scale = 10;                     // -s of pgbench -i
  std::int64_t clients = 1;                    // -c
  std::int64_t threads = 1;                    // -j
  sim::Duration duration = 60 * sim::kSecond;  // -T (0 with transactions set)
  std::int64_t transactions = 0;               // -t, per client; 0 = run for duration
  double rate = 0;                             // -R, transactions per second; 0 = as fast as possible
  sim::Duration latency_limit = 0;             // -L; 0 = none
  sim::Duration progress = 1 * sim::kSecond;   // -P
  Protocol protocol = Protocol::Simple;        // -M
  sim::Duration aggregate_interval = 0;        // --aggregate-interval; 0 = no aggregate log
  // -P's stderr goes to a file on the data volume (`2> pgbench.log` beside
  // PGDATA, as on the E1 host): thread 0 appends each line with write(2) and
  // its clients wait while the kernel holds that write. Not a pgbench option.
  bool progress_file = false;

  // CPU per statement, on one of the host's cores. Server side: executing
  // the statement (page accesses cost their own I/O time on top), plus
  // parsing and planning it under -M simple / extended (prepared skips that).
  // Client side: the pgbench thread sending it and reading the result; the
  // thread's event loop is busy meanwhile, delaying its other clients.
  sim::Duration cpu_select = 15 * sim::kMicrosecond;
  sim::Duration cpu_update = 30 * sim::kMicrosecond;
  sim::Duration cpu_insert = 25 * sim::kMicrosecond;
  sim::Duration cpu_begin_end = 8 * sim::kMicrosecond;  // BEGIN, END (commit work is cpu_commit)
  sim::Duration cpu_commit = 15 * sim::kMicrosecond;
  sim::Duration cpu_parse = 30 * sim::kMicrosecond;       // parse + plan, -M simple / extended
  sim::Duration cpu_client = 10 * sim::kMicrosecond;      // pgbench's side of one round trip
  sim::Duration disconnect_time = 1 * sim::kMillisecond;  // closing a connection at the end (E4)
  // Share of pgbench_accounts updates that are HOT, once the page has been
  // updated since the load (the first update of a page never is). 0.99 fits
  // PostgreSQL 15's n_tup_hot_upd after 20000 -N transactions at scale 10.
  double hot_update_ratio = 0.99;
};

}  // namespace ckptsim::pgbench
