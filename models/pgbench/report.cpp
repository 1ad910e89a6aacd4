#include "models/pgbench/report.h"

#include <cmath>

#include <fmt/format.h>

#include "models/pgbench/scripts.h"

namespace ckptsim::pgbench {

int major_version(const std::string& version) { return std::stoi(version); }

std::string progress_line(int major, double elapsed_s, double tps, const TransactionSums& s,
                          const PgbenchConfig& config) {
  std::string line = fmt::format("progress: {:.1f} s, {:.1f} tps, lat {:.3f} ms stddev {:.3f}", elapsed_s, tps,
                                 s.latency_avg_ms(), s.latency_stddev_ms());
  if (major >= 15) line += ", 0 failed";
  if (config.rate > 0) line += fmt::format(", lag {:.3f} ms", s.lag_avg_ms());
  if (config.rate > 0 && config.latency_limit > 0) line += fmt::format(", {} skipped", s.skipped);
  return line;
}

std::string final_summary(const PgbenchConfig& c, const TransactionSums& t, double duration_s) {
  std::string out;
  auto line = [&out](const std::string& text) { out += text + '\n'; };
  const std::int64_t scheduled = t.transactions + t.skipped;
  auto pct = [](std::int64_t part, std::int64_t whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  line(fmt::format("transaction type: {}", script_title(c.builtin)));
  line(fmt::format("scaling factor: {}", c.scale));
  line(fmt::format("query mode: {}", sim::enum_name(kProtocolNames, c.protocol)));
  line(fmt::format("number of clients: {}", c.clients));
  line(fmt::format("number of threads: {}", std::min(c.threads, c.clients)));
  line("maximum number of tries: 1");
  if (c.transactions > 0) {
    line(fmt::format("number of transactions per client: {}", c.transactions));
    line(fmt::format("number of transactions actually processed: {}/{}", t.transactions, c.transactions * c.clients));
  } else {
    line(fmt::format("duration: {} s", std::llround(duration_s)));
    line(fmt::format("number of transactions actually processed: {}", t.transactions));
  }
  line(fmt::format("number of failed transactions: 0 ({:.3f}%)", 0.0));
  if (c.rate > 0 && c.latency_limit > 0)
    line(fmt::format("number of transactions skipped: {} ({:.3f}%)", t.skipped, pct(t.skipped, scheduled)));
  if (c.latency_limit > 0)
    line(fmt::format("number of transactions above the {:.1f} ms latency limit: {}/{} ({:.3f}%)",
                     static_cast<double>(c.latency_limit) / 1e6, t.late, t.transactions,
                     pct(t.late, t.transactions)));
  line(fmt::format("latency average = {:.3f} ms", t.latency_avg_ms()));
  line(fmt::format("latency stddev = {:.3f} ms", t.latency_stddev_ms()));
  if (c.rate > 0) line(fmt::format("rate limit schedule lag: avg {:.3f} (max {:.3f}) ms", t.lag_avg_ms(), t.lag_max_ms()));
  line("initial connection time = 0.000 ms");
  line(fmt::format("tps = {:.6f} (without initial connection time)",
                   duration_s > 0 ? static_cast<double>(t.transactions) / duration_s : 0.0));
  return out;
}

std::string aggregate_line(std::int64_t interval_start, const TransactionSums& w) {
  // µs sums as pgbench keeps them; min/max are 0 for an empty interval.
  const double us = 1000.0;
  const bool any = w.transactions > 0;
  return fmt::format("{} {} {:.0f} {:.0f} {:.0f} {:.0f} {:.0f} {:.0f} {:.0f} {:.0f} {} 0 0 0 0", interval_start,
                     w.transactions, w.latency_sum_ms * us, w.latency_sum2_ms * us * us,
                     any ? static_cast<double>(w.latency_min) / 1e3 : 0.0,
                     any ? static_cast<double>(w.latency_max) / 1e3 : 0.0, w.lag_sum_ms * us,
                     w.lag_sum2_ms * us * us, any ? static_cast<double>(w.lag_min) / 1e3 : 0.0,
                     any ? static_cast<double>(w.lag_max) / 1e3 : 0.0, w.skipped);
}

}  // namespace ckptsim::pgbench
