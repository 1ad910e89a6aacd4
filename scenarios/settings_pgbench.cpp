// scenarios/settings_pgbench.cpp
//
// The load, by pgbench's option names. The warmup takes the same keys but
// scale, which is the measured run's.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_pgbench(Schema<pgbench::PgbenchConfig>& s, bool with_scale) {
  using pgbench::PgbenchConfig;
  using sim::kHour;
  using sim::kMillisecond;
  using sim::kSecond;
  s.choice("builtin", &PgbenchConfig::builtin, {"tpcb-like", "simple-update", "select-only"});
  if (with_scale) s.integer("scale", &PgbenchConfig::scale, 1, 100000);
  s.integer("clients", &PgbenchConfig::clients, 1, 10000)
      .integer("threads", &PgbenchConfig::threads, 1, 10000)
      .duration("duration", &PgbenchConfig::duration, kSecond, 0)
      .integer("transactions", &PgbenchConfig::transactions, 0)
      .real("rate", &PgbenchConfig::rate, 0)
      .duration("latency_limit", &PgbenchConfig::latency_limit, kMillisecond, 0)
      .duration("progress", &PgbenchConfig::progress, kSecond, kMillisecond, kHour)
      .choice("protocol", &PgbenchConfig::protocol, {"simple", "extended", "prepared"});
}

}  // namespace ckptsim::scenarios
