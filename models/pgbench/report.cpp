#include "models/pgbench/report.h"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "models/pgbench/scripts.h"

namespace ckptsim::pgbench {

int major_version(const std::string& version) { return std::stoi(version); }

std::string progress_line(int major, double elapsed_s, double tps, const TransactionSums& s,
                          const PgbenchConfig& config) {
  // Before 10, threadRun divided the interval's sums by its count unguarded:
  // with no transaction that is 0.0 / 0, which glibc's printf shows as "-nan"
  // (x86's default NaN has the sign bit set), for lat, stddev and lag alike.
  // 9.6's accumStats counts a skipped transaction in cnt, so only a second
  // with neither is empty. From 10 on, `if (ntx > 0)` prints 0.000 instead.
  const bool nan = major < 10 && s.transactions + s.skipped == 0;
  auto ms = [nan](double value) { return nan ? std::string("-nan") : fmt::format("{:.3f}", value); };
  std::string line = fmt::format("progress: {:.1f} s, {:.1f} tps, lat {} ms stddev {}", elapsed_s, tps,
                                 ms(s.latency_avg_ms()), ms(s.latency_stddev_ms()));
  if (major >= 15) line += ", 0 failed";
  if (config.rate > 0) line += fmt::format(", lag {} ms", ms(s.lag_avg_ms()));
  if (config.rate > 0 && config.latency_limit > 0) line += fmt::format(", {} skipped", s.skipped);
  return line;
}

namespace {

// 9.5 and earlier named the builtin scripts without "<builtin: >" (9.6 added -b).
std::string title_before_96(Builtin builtin) {
  switch (builtin) {
    case Builtin::SelectOnly: return "SELECT only";
    case Builtin::SimpleUpdate: return "Update only pgbench_accounts";
    case Builtin::TpcbLike: break;
  }
  return "TPC-B (sort of)";
}

}  // namespace

std::string final_summary(int v, const PgbenchConfig& c, const TransactionSums& t, double duration_s) {
  std::string out;
  auto line = [&out](const std::string& text) { out += text + '\n'; };
  const std::int64_t scheduled = t.transactions + t.skipped;
  auto pct = [](std::int64_t part, std::int64_t whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  const bool v15 = v >= 1500;
  const char* percent = v15 ? "%" : " %";  // "(0.000%)" from 15, "(0.000 %)" before
  line(fmt::format("transaction type: {}", v >= 906 ? script_title(c.builtin) : title_before_96(c.builtin)));
  line(fmt::format("scaling factor: {}", c.scale));
  line(fmt::format("query mode: {}", sim::enum_name(kProtocolNames, c.protocol)));
  line(fmt::format("number of clients: {}", c.clients));
  line(fmt::format("number of threads: {}", std::min(c.threads, c.clients)));
  if (v15) line("maximum number of tries: 1");
  if (c.transactions > 0) {
    line(fmt::format("number of transactions per client: {}", c.transactions));
    line(fmt::format("number of transactions actually processed: {}/{}", t.transactions, c.transactions * c.clients));
  } else {
    line(fmt::format("duration: {} s", std::llround(duration_s)));
    line(fmt::format("number of transactions actually processed: {}", t.transactions));
  }
  // Before 15 the rest is "nonsensical if we failed to execute any xacts" and not printed.
  if (!v15 && t.transactions <= 0) return out;
  if (v15) line(fmt::format("number of failed transactions: 0 ({:.3f}%)", 0.0));
  if (c.rate > 0 && c.latency_limit > 0)
    line(fmt::format("number of transactions skipped: {} ({:.3f}{})", t.skipped, pct(t.skipped, scheduled), percent));
  if (c.latency_limit > 0) {
    const double limit_ms = static_cast<double>(c.latency_limit) / 1e6;
    if (v15) {
      line(fmt::format("number of transactions above the {:.1f} ms latency limit: {}/{} ({:.3f}%)", limit_ms, t.late,
                       t.transactions, pct(t.late, t.transactions)));
    } else {
      line(fmt::format("number of transactions above the {:.1f} ms latency limit: {} ({:.3f} %)", limit_ms, t.late,
                       pct(t.late, scheduled)));
    }
  }
  // ckptsim always reports progress (-P), so pgbench has measured latencies to print.
  if (v >= 906) {
    line(fmt::format("latency average = {:.3f} ms", t.latency_avg_ms()));
    line(fmt::format("latency stddev = {:.3f} ms", t.latency_stddev_ms()));
  } else if (v >= 904) {
    line(fmt::format("latency average: {:.3f} ms", t.latency_avg_ms()));
    line(fmt::format("latency stddev: {:.3f} ms", t.latency_stddev_ms()));
  }
  if (c.rate > 0)
    line(fmt::format("rate limit schedule lag: avg {:.3f} (max {:.3f}) ms", t.lag_avg_ms(), t.lag_max_ms()));
  // No connection time is modelled: the tps with and without it are the same.
  const double tps = duration_s > 0 ? static_cast<double>(t.transactions) / duration_s : 0.0;
  if (v >= 1400) {
    line("initial connection time = 0.000 ms");
    line(fmt::format("tps = {:.6f} (without initial connection time)", tps));
  } else {
    line(fmt::format("tps = {:.6f} (including connections establishing)", tps));
    line(fmt::format("tps = {:.6f} (excluding connections establishing)", tps));
  }
  return out;
}

std::string aggregate_line(int v, std::int64_t interval_start, const TransactionSums& w, const PgbenchConfig& c) {
  // µs sums as pgbench keeps them; min/max are 0 for an empty interval.
  const double us = 1000.0;
  const bool any = w.transactions > 0;
  std::string line =
      fmt::format("{} {} {:.0f} {:.0f} {:.0f} {:.0f}", interval_start, w.transactions, w.latency_sum_ms * us,
                  w.latency_sum2_ms * us * us, any ? static_cast<double>(w.latency_min) / 1e3 : 0.0,
                  any ? static_cast<double>(w.latency_max) / 1e3 : 0.0);
  const std::string lag =
      fmt::format(" {:.0f} {:.0f} {:.0f} {:.0f}", w.lag_sum_ms * us, w.lag_sum2_ms * us * us,
                  any ? static_cast<double>(w.lag_min) / 1e3 : 0.0, any ? static_cast<double>(w.lag_max) / 1e3 : 0.0);
  if (v >= 1500) return line + lag + fmt::format(" {} 0 0 0 0", w.skipped);
  if (c.rate > 0) {
    line += lag;
    if (c.latency_limit > 0) line += fmt::format(" {}", w.skipped);
  }
  return line;
}

int version_num(const std::string& version) {
  const int major = major_version(version);
  if (major >= 10) return major * 100;
  const auto dot = version.find('.');
  const int minor = dot == std::string::npos ? 0 : std::atoi(version.c_str() + dot + 1);
  return major * 100 + minor;
}

}  // namespace ckptsim::pgbench
