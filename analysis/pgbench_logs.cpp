#include "analysis/pgbench_logs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace ckptsim::analysis {

namespace {

constexpr double kMaxTps = 1e9;                     // as for progress.csv: no run exceeds it
constexpr double kEpochAfter = 1e8;                 // a -P time past this is --progress-timestamp's
constexpr double kInt64Limit = 9223372036854775808.0;  // 2^63

bool parse_double(std::string_view text, double& value) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(value);
}

bool parse_int(std::string_view text, std::int64_t& value) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size();
}

void add_count(std::int64_t& total, double amount, const std::filesystem::path& file, int line) {
  const double rounded = std::round(amount);
  if (!(rounded >= 0 && rounded < kInt64Limit) ||
      __builtin_add_overflow(total, static_cast<std::int64_t>(rounded), &total)) {
    fail_at(file, line, "the transactions up to here are more than a 64-bit count holds");
  }
}

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream words(line);
  std::vector<std::string> out;
  for (std::string w; words >> w;) out.push_back(w);
  return out;
}

// pgbench 9.4-17, printProgressReport; the latency fields may read "nan" in
// an interval without transactions (9.x divides by zero there).
const std::regex& progress_pattern() {
  static const std::regex pattern(
      R"(progress: ([0-9]+(?:\.[0-9]+)?) s, ([0-9]+(?:\.[0-9]+)?) tps, lat [^ ,]+ ms stddev [^ ,]+)"
      R"((, [0-9]+ failed)?(, lag [^ ,]+ ms)?(, ([0-9]+) skipped)?(, [0-9]+ retried, [0-9]+ retries)?\r?)");
  return pattern;
}

}  // namespace

bool holds_progress_line(const std::string& text) {
  return text.starts_with("progress: ") || text.find("\nprogress: ") != std::string::npos;
}

bool looks_like_aggregate_line(const std::string& line) {
  const auto words = split_words(line);
  std::int64_t whole = 0;
  return words.size() >= 6 && std::all_of(words.begin(), words.end(), [&](const std::string& w) {
           return parse_int(w, whole);
         });
}

PgbenchReadings read_progress_log(std::istream& in, const std::filesystem::path& name, double interval_s) {
  PgbenchReadings out;
  bool any_failed_field = false, any_line = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (!line.starts_with("progress: ")) continue;
    std::smatch m;
    if (!std::regex_match(line, m, progress_pattern())) {
      fail_at(name, number,
              fmt::format("\"{}\" is not a pgbench -P line (expected \"progress: T s, N tps, lat L ms stddev S...\")",
                          line.substr(0, 80)));
    }
    any_line = true;
    TimedTps r{0, 0, number};
    if (!parse_double(m[1].str(), r.time_s)) fail_at(name, number, fmt::format("time {} is not a number", m[1].str()));
    if (!parse_double(m[2].str(), r.tps) || r.tps > kMaxTps) {
      fail_at(name, number, fmt::format("tps {} is out of range (0 to 1e9)", m[2].str().substr(0, 40)));
    }
    any_failed_field |= m[3].matched;
    if (m[6].matched) {
      out.has_skipped = true;
      std::int64_t skipped = 0;
      if (!parse_int(m[6].str(), skipped) || __builtin_add_overflow(out.skipped, skipped, &out.skipped)) {
        fail_at(name, number, "the skipped transactions up to here are more than a 64-bit count holds");
      }
    }
    out.readings.push_back(r);
  }
  if (!any_line) fail_at(name, 1, "no pgbench -P line (\"progress: ...\") in the file");

  // --progress-timestamp: epoch seconds; the run began one interval before the first report.
  if (out.readings.front().time_s >= kEpochAfter) {
    const double step = interval_s > 0 ? interval_s : infer_interval(out.readings);
    const double start = out.readings.front().time_s - step;
    for (TimedTps& r : out.readings) r.time_s -= start;
    out.interval_s = step;
  }
  double previous = 0;
  for (const TimedTps& r : out.readings) {
    // A report covers the time since the previous one (longer after a stall).
    if (r.time_s > previous) add_count(out.transactions, r.tps * (r.time_s - previous), name, r.line);
    previous = std::max(previous, r.time_s);
  }
  if (interval_s > 0) out.interval_s = interval_s;
  out.format = any_failed_field ? "pgbench -P log (15+)" : "pgbench -P log (9.4-14)";
  return out;
}

PgbenchReadings read_aggregate_logs(const std::vector<std::filesystem::path>& files, double interval_s) {
  struct Interval {
    std::int64_t transactions = 0, skipped = 0;
    int line = 0;
  };
  std::map<std::int64_t, Interval> intervals;
  std::size_t columns = 0;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot open", file.string()));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const auto words = split_words(line);
      if (words.empty()) continue;
      if (words.size() != 6 && words.size() != 10 && words.size() != 11 && words.size() != 15) {
        fail_at(file, number,
                fmt::format("{} fields, expected an aggregate log line of 6, 10, 11 or 15 numbers", words.size()));
      }
      if (columns != 0 && words.size() != columns) {
        fail_at(file, number, fmt::format("{} fields where the logs before have {}: not one run's logs",
                                          words.size(), columns));
      }
      columns = words.size();
      std::int64_t start = 0, transactions = 0, skipped = 0;
      double number_value = 0;
      for (const auto& w : words) {
        if (!parse_double(w, number_value) || number_value < 0) {
          fail_at(file, number, fmt::format("\"{}\" is not a count or a time", w.substr(0, 40)));
        }
      }
      if (!parse_int(words[0], start) || !parse_int(words[1], transactions) ||
          (words.size() >= 11 && !parse_int(words[10], skipped))) {
        fail_at(file, number, "interval_start, num_transactions and skipped must be whole numbers");
      }
      Interval& interval = intervals[start];
      if (interval.line == 0) interval.line = number;
      if (__builtin_add_overflow(interval.transactions, transactions, &interval.transactions) ||
          __builtin_add_overflow(interval.skipped, skipped, &interval.skipped)) {
        fail_at(file, number, "the transactions of this interval are more than a 64-bit count holds");
      }
    }
  }
  const std::filesystem::path& first = files.front();
  if (intervals.empty()) fail_at(first, 1, "no aggregate log line in the file");

  PgbenchReadings out;
  out.has_skipped = columns >= 11;
  out.format = columns == 15 ? "pgbench aggregate log (15+)" : "pgbench aggregate log (9.3-14)";
  const std::int64_t run_start = intervals.begin()->first;
  std::vector<TimedTps> starts;
  for (const auto& [start, interval] : intervals) {
    starts.push_back({static_cast<double>(start - run_start), 0, interval.line});
  }
  out.interval_s = interval_s > 0 ? interval_s : infer_interval(starts);
  std::size_t i = 0;
  for (const auto& [start, interval] : intervals) {
    TimedTps& r = starts[i++];
    r.tps = static_cast<double>(interval.transactions) / out.interval_s;
    add_count(out.transactions, static_cast<double>(interval.transactions), first, interval.line);
    if (__builtin_add_overflow(out.skipped, interval.skipped, &out.skipped)) {
      fail_at(first, interval.line, "the skipped transactions up to here are more than a 64-bit count holds");
    }
  }
  out.readings = std::move(starts);
  return out;
}

}  // namespace ckptsim::analysis
