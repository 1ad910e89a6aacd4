#include "analysis/pgbench_logs.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "analysis/progress_line.h"
#include "analysis/text_line.h"

namespace ckptsim::analysis {

namespace {

constexpr double kEpochAfter = 1e8;                    // a -P time past this is --progress-timestamp's
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

// pgbench prints -P times to 0.1 s ("%.1f s"); epoch times to 1 ms, but
// their steps are as late as the others.
constexpr double kProgressResolution = 0.1;

}  // namespace

bool holds_progress_line(std::istream& in, const std::filesystem::path& name) {
  std::string line;
  for (int number = 1; read_line(in, line, name, number); ++number) {
    if (line.starts_with("progress: ")) return true;
  }
  return false;
}

bool looks_like_aggregate_line(const std::string& line) {
  const auto words = split_words(line);
  std::int64_t whole = 0;
  return words.size() >= 6 &&
         std::all_of(words.begin(), words.end(), [&](const std::string& w) { return parse_int(w, whole); });
}

PgbenchReadings read_progress_log(std::istream& in, const std::filesystem::path& name, double interval_s) {
  PgbenchReadings out;
  bool any_failed_field = false;
  std::string line;
  for (int number = 1; read_line(in, line, name, number); ++number) {
    if (!line.starts_with("progress: ")) continue;
    const ProgressLine p = parse_progress_line(line, name, number);
    any_failed_field |= p.has_failed;
    if (__builtin_add_overflow(out.failed, p.failed, &out.failed)) {
      fail_at(name, number, "the failed transactions up to here are more than a 64-bit count holds");
    }
    if (p.has_skipped) {
      out.has_skipped = true;
      if (__builtin_add_overflow(out.skipped, p.skipped, &out.skipped)) {
        fail_at(name, number, "the skipped transactions up to here are more than a 64-bit count holds");
      }
    }
    out.readings.push_back({p.time_s, p.tps, number});
  }
  if (out.readings.empty()) fail_at(name, 1, "no pgbench -P line (\"progress: ...\") in the file");

  // --progress-timestamp: epoch seconds; the run began one interval before the first report.
  std::vector<double> times;
  const bool epoch = out.readings.front().time_s >= kEpochAfter;
  if (!epoch) times.push_back(0);
  for (const TimedTps& r : out.readings) times.push_back(r.time_s);
  out.interval_s = most_common_step(times, kProgressResolution);
  if (epoch) {
    const double start = out.readings.front().time_s - (interval_s > 0 ? interval_s : out.interval_s);
    for (TimedTps& r : out.readings) r.time_s -= start;
  }
  double previous = 0;
  for (const TimedTps& r : out.readings) {
    // A report covers the time since the previous one (longer after a stall).
    if (r.time_s > previous) add_count(out.transactions, r.tps * (r.time_s - previous), name, r.line);
    previous = std::max(previous, r.time_s);
  }
  out.has_failed = any_failed_field;
  out.format = any_failed_field ? "pgbench -P log (15+)" : "pgbench -P log (9.4-14)";
  out.time_label = TimeLabel::kPrintedAfterEnd;
  return out;
}

PgbenchReadings read_aggregate_logs(const std::vector<std::filesystem::path>& files, double interval_s) {
  std::vector<std::ifstream> streams;
  std::vector<NamedLog> logs;
  streams.reserve(files.size());
  for (const auto& file : files) {
    streams.emplace_back(file, std::ios::binary);
    if (!streams.back()) throw std::runtime_error(fmt::format("{}: cannot open", file.string()));
    logs.push_back({file, &streams.back()});
  }
  return read_aggregate_streams(logs, interval_s);
}

PgbenchReadings read_aggregate_streams(const std::vector<NamedLog>& logs, double interval_s) {
  struct Interval {
    std::int64_t transactions = 0, skipped = 0;
    int line = 0;
  };
  std::map<std::int64_t, Interval> intervals;
  std::size_t columns = 0;
  std::int64_t failed = 0;  // 15+: serialization_failures + deadlock_failures, the last two columns
  if (logs.empty()) throw std::invalid_argument("read_aggregate_streams: no log");
  for (const auto& [file, in] : logs) {
    std::string line;
    for (int number = 1; read_line(*in, line, file, number); ++number) {
      const auto words = split_words(line);
      if (words.empty()) continue;
      if (words.size() != 6 && words.size() != 10 && words.size() != 11 && words.size() != 15) {
        fail_at(file, number,
                fmt::format("{} fields, expected an aggregate log line of 6, 10, 11 or 15 numbers", words.size()));
      }
      if (columns != 0 && words.size() != columns) {
        fail_at(file, number,
                fmt::format("{} fields where the logs before have {}: not one run's logs", words.size(), columns));
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
      std::int64_t serialization = 0, deadlock = 0;
      if (words.size() == 15 && (!parse_int(words[13], serialization) || !parse_int(words[14], deadlock))) {
        fail_at(file, number, "serialization_failures and deadlock_failures must be whole numbers");
      }
      if (__builtin_add_overflow(failed, serialization, &failed) || __builtin_add_overflow(failed, deadlock, &failed)) {
        fail_at(file, number, "the failed transactions up to here are more than a 64-bit count holds");
      }
      Interval& interval = intervals[start];
      if (interval.line == 0) interval.line = number;
      if (__builtin_add_overflow(interval.transactions, transactions, &interval.transactions) ||
          __builtin_add_overflow(interval.skipped, skipped, &interval.skipped)) {
        fail_at(file, number, "the transactions of this interval are more than a 64-bit count holds");
      }
    }
  }
  const std::filesystem::path& first = logs.front().name;
  if (intervals.empty()) fail_at(first, 1, "no aggregate log line in the file");

  PgbenchReadings out;
  out.has_skipped = columns >= 11;
  out.has_failed = columns == 15;
  out.failed = failed;
  out.format = columns == 15 ? "pgbench aggregate log (15+)" : "pgbench aggregate log (9.3-14)";
  const std::int64_t run_start = intervals.begin()->first;
  std::vector<TimedTps> starts;
  for (const auto& [start, interval] : intervals) {
    starts.push_back({static_cast<double>(start - run_start), 0, interval.line});
  }
  // interval_start is computed, never late (doLog writes the empty intervals
  // too): the smallest step is --aggregate-interval.
  out.interval_s = infer_interval(starts);
  const double tps_interval = interval_s > 0 ? interval_s : out.interval_s;
  std::size_t i = 0;
  for (const auto& [start, interval] : intervals) {
    TimedTps& r = starts[i++];
    r.tps = static_cast<double>(interval.transactions) / tps_interval;
    add_count(out.transactions, static_cast<double>(interval.transactions), first, interval.line);
    if (__builtin_add_overflow(out.skipped, interval.skipped, &out.skipped)) {
      fail_at(first, interval.line, "the skipped transactions up to here are more than a 64-bit count holds");
    }
  }
  out.readings = std::move(starts);
  return out;
}

}  // namespace ckptsim::analysis
