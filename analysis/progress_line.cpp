#include "analysis/progress_line.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "analysis/tps_series.h"

namespace ckptsim::analysis {

namespace {

constexpr double kMaxTps = 1e9;  // as for progress.csv: no run exceeds it
// A field (or a line) as messages show it: long ones cut, with their length.
std::string shown(std::string_view field, std::size_t limit = 40) {
  if (field.size() <= limit) return std::string(field);
  return fmt::format("{}... ({} characters)", field.substr(0, limit), field.size());
}

class LineReader {
 public:
  LineReader(std::string_view line, const std::filesystem::path& file, int number)
      : line_(line), rest_(line), file_(file), number_(number) {}

  bool done() const { return rest_.empty() || rest_ == "\r"; }
  bool at(std::string_view text) const { return rest_.starts_with(text); }

  void expect(std::string_view text) {
    if (!at(text)) not_the_shape();
    rest_.remove_prefix(text.size());
  }

  // Up to the next ' ' or ',' (what pgbench puts after every field), or the line's end.
  std::string_view word() {
    const std::size_t end = std::min(rest_.find_first_of(" ,\r"), rest_.size());
    const std::string_view w = rest_.substr(0, end);
    if (w.empty()) not_the_shape();
    rest_.remove_prefix(end);
    return w;
  }

  // "%.1f" of a non-negative value: digits, then optionally '.' and digits.
  double decimal(std::string_view name) {
    const std::string_view w = word();
    const std::size_t dot = w.find('.');
    const auto digits = [](std::string_view s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    if (!digits(w.substr(0, dot)) || (dot != std::string_view::npos && !digits(w.substr(dot + 1)))) not_the_shape();
    return number(w, name);
  }

  // "%.3f" of a latency: any double, nan and -nan (glibc's printf, 9.x) and
  // NaN, Infinity (PostgreSQL's own snprintf, which pgbench uses since 12) included.
  void latency(std::string_view name) {
    const std::string_view w = word();
    if (w.find_first_not_of("0123456789.-+eEnaifNIty") != std::string_view::npos) {
      fail(fmt::format("{} \"{}\" is not a number", name, shown(w)));
    }
    (void)number(w, name, /*finite=*/false);
  }

  std::string_view digits() {
    const std::string_view w = word();
    if (w.find_first_not_of("0123456789") != std::string_view::npos) not_the_shape();
    return w;
  }

  std::int64_t count(std::string_view w, std::string_view name) const {
    std::int64_t value = 0;
    const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (ec == std::errc::result_out_of_range) {
      fail(fmt::format("{} {} is more than a 64-bit count holds", name, shown(w)));
    }
    if (ec != std::errc() || ptr != w.data() + w.size()) not_the_shape();
    return value;
  }

  [[noreturn]] void fail(std::string_view what) const { fail_at(file_, number_, what); }

  [[noreturn]] void not_the_shape() const {
    fail(
        fmt::format("\"{}\" is not a pgbench -P line (expected \"progress: T s, N tps, lat L ms stddev S[, F failed]"
                    "[, lag G ms][, K skipped][, R retried, T retries]\")",
                    shown(line_.substr(0, line_.find_last_not_of('\r') + 1), 80)));
  }

 private:
  double number(std::string_view w, std::string_view name, bool finite = true) const {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && finite && !std::isfinite(value))) {
      fail(fmt::format("{} {} is out of range (a double holds up to 1.8e308)", name, shown(w)));
    }
    if (ec != std::errc() || ptr != w.data() + w.size()) fail(fmt::format("{} \"{}\" is not a number", name, shown(w)));
    return value;
  }

  std::string_view line_, rest_;
  const std::filesystem::path& file_;
  int number_;
};

}  // namespace

ProgressLine parse_progress_line(std::string_view line, const std::filesystem::path& file, int number) {
  LineReader in(line, file, number);
  ProgressLine out;
  in.expect("progress: ");
  out.time_s = in.decimal("time");
  in.expect(" s, ");
  out.tps = in.decimal("tps");
  if (out.tps > kMaxTps) in.fail(fmt::format("tps {} is out of range (0 to 1e9)", out.tps));
  in.expect(" tps, lat ");
  in.latency("lat");
  in.expect(" ms stddev ");
  in.latency("stddev");

  // The optional clauses, each at most once and in pgbench's order.
  enum Clause { kNone, kFailed, kLag, kSkipped, kRetried } last = kNone;
  const auto next = [&](Clause clause) {
    if (clause <= last) in.not_the_shape();
    last = clause;
  };
  while (!in.done()) {
    in.expect(", ");
    if (in.at("lag ")) {
      next(kLag);
      in.expect("lag ");
      in.latency("lag");
      in.expect(" ms");
      continue;
    }
    const std::string_view n = in.digits();
    if (in.at(" failed")) {
      next(kFailed);
      in.expect(" failed");
      out.failed = in.count(n, "failed");
      out.has_failed = true;
    } else if (in.at(" skipped")) {
      next(kSkipped);
      in.expect(" skipped");
      out.skipped = in.count(n, "skipped");
      out.has_skipped = true;
    } else {
      next(kRetried);
      in.expect(" retried, ");
      (void)in.count(n, "retried");
      (void)in.count(in.digits(), "retries");
      in.expect(" retries");
    }
  }
  return out;
}

}  // namespace ckptsim::analysis
