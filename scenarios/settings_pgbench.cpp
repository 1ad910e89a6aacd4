// scenarios/settings_pgbench.cpp
//
// The load, by pgbench's option names. The warmup takes the same keys but
// scale, which is the measured run's.
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

void describe_pgbench(Schema<pgbench::PgbenchConfig>& s, bool with_scale) {
  using pgbench::PgbenchConfig;
  using sim::kHour;
  using sim::kMicrosecond;
  using sim::kMillisecond;
  using sim::kSecond;
  s.choice("builtin", &PgbenchConfig::builtin, pgbench::kBuiltinNames);
  if (with_scale) s.integer("scale", &PgbenchConfig::scale, 1, 100000);
  s.integer("clients", &PgbenchConfig::clients, 1, 10000)
      .integer("threads", &PgbenchConfig::threads, 1, 10000)
      .duration("duration", &PgbenchConfig::duration, kSecond, 0)
      .integer("transactions", &PgbenchConfig::transactions, 0)
      // -R: up to 10 million tps, far beyond any server, so that the schedule's gaps stay whole nanoseconds.
      .real("rate", &PgbenchConfig::rate, 0, 1e7)
      .duration("latency_limit", &PgbenchConfig::latency_limit, kMillisecond, 0)
      .duration("progress", &PgbenchConfig::progress, kSecond, kMillisecond, kHour)
      .choice("protocol", &PgbenchConfig::protocol, pgbench::kProtocolNames)
      .duration("aggregate_interval", &PgbenchConfig::aggregate_interval, kSecond, 0, kHour)
      // Where -P's stderr goes (not a pgbench option: the shell's `2> pgbench.log` on the data volume).
      .boolean("progress_file", &PgbenchConfig::progress_file)
      // CPU per statement (not pgbench options: the model's costs, see pgbench_config.h).
      .duration("cpu_select", &PgbenchConfig::cpu_select, kMicrosecond, 0, kSecond)
      .duration("cpu_update", &PgbenchConfig::cpu_update, kMicrosecond, 0, kSecond)
      .duration("cpu_insert", &PgbenchConfig::cpu_insert, kMicrosecond, 0, kSecond)
      .duration("cpu_begin_end", &PgbenchConfig::cpu_begin_end, kMicrosecond, 0, kSecond)
      .duration("cpu_commit", &PgbenchConfig::cpu_commit, kMicrosecond, 0, kSecond)
      .duration("cpu_parse", &PgbenchConfig::cpu_parse, kMicrosecond, 0, kSecond)
      .duration("cpu_client", &PgbenchConfig::cpu_client, kMicrosecond, 0, kSecond)
      .duration("disconnect_time", &PgbenchConfig::disconnect_time, kMillisecond, 0, kSecond)
      .real("hot_update_ratio", &PgbenchConfig::hot_update_ratio, 0, 1);
}

}  // namespace ckptsim::scenarios
