// models/pgbench/pgbench_config.h
//
// The load, with pgbench's option names: the `pgbench` section of a scenario
// is the measured run, the `warmup` section a run before it that is not
// counted (same keys; its scale is the measured run's).
#pragma once

#include <cstdint>
#include <string>

#include "sim/time.h"

namespace ckptsim::pgbench {

struct PgbenchConfig {
  std::string builtin = "tpcb-like";             // -b: tpcb-like, simple-update (-N), select-only (-S)
  std::int64_t scale = 10;                       // -s of pgbench -i
  std::int64_t clients = 1;                      // -c
  std::int64_t threads = 1;                      // -j
  sim::Duration duration = 60 * sim::kSecond;    // -T (0 with transactions set)
  std::int64_t transactions = 0;                 // -t, per client; 0 = run for duration
  double rate = 0;                               // -R, transactions per second; 0 = as fast as possible
  sim::Duration latency_limit = 0;               // -L; 0 = none
  sim::Duration progress = 1 * sim::kSecond;     // -P
  std::string protocol = "simple";               // -M: simple, extended, prepared
};

}  // namespace ckptsim::pgbench
