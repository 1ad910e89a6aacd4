#include "analysis/tps_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "analysis/interval_merge.h"
#include "analysis/pgbench_logs.h"
#include "analysis/regular_file.h"
#include "analysis/text_line.h"

namespace ckptsim::analysis {

namespace fs = std::filesystem;

namespace {

void rewind(std::istream& in) {
  in.clear();
  in.seekg(0);
}

// An input file, read as a stream: only a regular file (a FIFO's open
// would block, a device never end, and the readers go over it more than once).
std::ifstream open_input(const fs::path& file) {
  if (!fs::exists(file)) throw std::runtime_error(fmt::format("{}: no such file", file.string()));
  if (!is_readable_regular_file(file)) {
    throw std::runtime_error(
        fmt::format("{}: not a regular file (a pipe or a device cannot be analyzed: save the output to a file first)",
                    file.string()));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", file.string()));
  return in;
}

// The first line with something on it ("" for none), the stream rewound.
std::string first_line(std::istream& in, const fs::path& file) {
  std::string line;
  for (int number = 1; read_line(in, line, file, number); ++number) {
    if (line.find_first_not_of('\r') != std::string::npos) break;
  }
  rewind(in);
  return line;
}

// A folder: a run folder's progress.csv, else the aggregate logs in it.
std::vector<fs::path> files_of_folder(const TpsInputNames& names, const fs::path& dir) {
  if (fs::is_regular_file(dir / names.progress)) return {dir / names.progress};
  std::vector<fs::path> logs;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && names.is_aggregate_log(entry.path().filename().string())) {
      logs.push_back(entry.path());
    }
  }
  if (logs.empty()) {
    throw std::runtime_error(
        fmt::format("{}: a folder with neither {} nor {} files", dir.string(), names.progress, names.aggregate_logs));
  }
  std::sort(logs.begin(), logs.end());
  return logs;
}

// pgbench names a run's aggregate logs <prefix>PID (thread 0) and
// <prefix>PID.N (thread N): the run (its thread 0's path) and the thread of one.
struct LogOf {
  std::string run;
  long thread = 0;
};
std::optional<LogOf> log_of(const TpsInputNames& names, const fs::path& file) {
  const std::string name = file.filename().string();
  if (names.is_aggregate_log == nullptr || !names.is_aggregate_log(name)) return std::nullopt;
  const std::string prefix = names.aggregate_logs.substr(0, names.aggregate_logs.find('*'));
  const std::string rest = name.substr(prefix.size());
  const auto dot = rest.find('.');
  const std::string pid = rest.substr(0, dot);
  try {
    return LogOf{(file.parent_path() / (prefix + pid)).string(), dot == std::string::npos ? 0 : std::stol(rest.substr(dot + 1))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The aggregate logs of one run, whole: two runs' logs are refused (they would
// be summed), and a run's threads given in part are completed from its folder,
// or refused naming the one that is missing.
void one_runs_logs(const TpsInputNames& names, std::vector<fs::path>& files) {
  std::map<std::string, std::set<long>> runs;
  for (const fs::path& f : files) {
    if (const auto log = log_of(names, f)) runs[log->run].insert(log->thread);
  }
  if (runs.empty()) return;
  if (runs.size() > 1) {
    std::string listed;
    for (const auto& [run, threads] : runs)
      listed += fmt::format("{}{}", listed.empty() ? "" : ", ", fs::path(run).filename().string());
    throw std::runtime_error(fmt::format("{}: the aggregate logs of {} pgbench runs ({}): they would be summed; "
                                         "analyze one run's logs at a time",
                                         fs::path(runs.begin()->first).parent_path().string(), runs.size(), listed));
  }
  const auto& [run, given] = *runs.begin();
  std::set<long> threads = given;
  const fs::path dir = fs::path(run).parent_path().empty() ? fs::path(".") : fs::path(run).parent_path();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const auto log = log_of(names, entry.path());
    if (!entry.is_regular_file() || !log || fs::path(log->run).filename() != fs::path(run).filename()) continue;
    if (threads.insert(log->thread).second) files.push_back(entry.path());  // a thread not given: its share too
  }
  for (long t = 0; t <= *threads.rbegin(); ++t) {
    if (threads.contains(t)) continue;
    throw std::runtime_error(fmt::format("{}: thread {}'s log {} is missing (pgbench wrote one per thread, 0 to {}): "
                                         "the run's tps would be short of its share",
                                         run, t,
                                         t == 0 ? fs::path(run).filename().string()
                                                : fmt::format("{}.{}", fs::path(run).filename().string(), t),
                                         *threads.rbegin()));
  }
  std::sort(files.begin(), files.end());
}

// The interval to judge a file at: the user's --interval, else the file's own
// spacing. A finer one would cut each of the file's intervals in pieces, all
// but one counted as 0 tps.
double judged_interval(double interval_s, double spacing_s, const fs::path& file) {
  if (interval_s <= 0) return spacing_s;
  if (interval_s < spacing_s * (1 - 1e-9)) {
    throw std::runtime_error(fmt::format(
        "{}: --interval {:g} is below the {:g} s spacing of the file's intervals: the file cannot be cut finer "
        "(expected --interval {:g} or more, or none to take the file's own)",
        file.string(), interval_s, spacing_s, spacing_s));
  }
  return interval_s;
}

}  // namespace

TpsInput tps_of_pgbench(const PgbenchReadings& r, const fs::path& name, double interval_s) {
  TpsInput input;
  input.format = r.format;
  input.interval_s = judged_interval(interval_s, r.interval_s, name);
  input.tps = place_on_interval_grid(r.readings, input.interval_s, name, "time", r.time_label);
  input.counts.transactions = r.transactions;
  input.counts.skipped = r.skipped;
  input.has_skipped = r.has_skipped;
  input.failed = r.failed;
  input.has_failed = r.has_failed;
  return input;
}

namespace {

// A pgbench log at the user's --interval: read on its own interval and
// merged when --interval is a whole multiple of it (interval_merge.h), else
// read at --interval as given. read(interval_s) reads the log afresh.
template <class Read>
TpsInput pgbench_input(Read read, const fs::path& name, double interval_s) {
  const PgbenchReadings own = read(0.0);
  const std::size_t k = intervals_per_merge(own.interval_s, interval_s, own.readings.size(), name);
  if (k == 0) return tps_of_pgbench(interval_s > 0 ? read(interval_s) : own, name, interval_s);
  TpsInput input = tps_of_pgbench(own, name, 0);
  input.tps = merge_intervals(input.tps, k);
  input.interval_s = interval_s;
  return input;
}

}  // namespace

TpsInput read_tps_input(const TpsInputNames& names, const std::vector<fs::path>& inputs, double interval_s) {
  std::vector<fs::path> files;
  for (const auto& input : inputs) {
    if (fs::is_directory(input)) {
      for (auto& f : files_of_folder(names, input)) files.push_back(std::move(f));
    } else {
      files.push_back(input);
    }
  }
  if (files.empty()) throw std::runtime_error("no input file");
  one_runs_logs(names, files);

  TpsInput input;
  std::ifstream in = open_input(files.front());
  if (looks_like_aggregate_line(first_line(in, files.front()))) {
    for (const auto& f : files) {
      std::ifstream log = open_input(f);
      if (!looks_like_aggregate_line(first_line(log, f))) {
        throw std::runtime_error(fmt::format(
            "{}: not a pgbench aggregate log like {}: only the aggregate logs of one run's threads can be read together",
            f.string(), files.front().string()));
      }
    }
    input =
        pgbench_input([&](double interval) { return read_aggregate_logs(files, interval); }, files.front(), interval_s);
  } else {
    if (files.size() > 1) {
      throw std::runtime_error(
          fmt::format("{}: several files are read together only when they are the aggregate logs of one run's threads",
                      files.front().string()));
    }
    const bool progress_log = holds_progress_line(in, files.front());
    rewind(in);
    if (progress_log) {
      const auto read = [&](double interval) {
        rewind(in);
        return read_progress_log(in, files.front(), interval);
      };
      input = pgbench_input(read, files.front(), interval_s);
    } else {
      const auto header = read_csv_header(in, files.front());
      if (std::find(header.begin(), header.end(), "time_s") == header.end()) {
        throw std::runtime_error(
            fmt::format("{}: neither a CSV with columns time_s and tps (ckptsim's {}), nor pgbench -P output, nor a "
                        "pgbench aggregate log",
                        files.front().string(), names.progress));
      }
      rewind(in);
      input.counts = read_progress_counts(in, files.front());  // checks every row first
      // The rows' spacing, as read_tps_series infers it; merged when --interval is a whole multiple of it.
      rewind(in);
      const std::vector<TimedTps> readings = read_tps_readings(in, files.front());
      const double own = infer_interval(readings);
      const std::size_t k = intervals_per_merge(own, interval_s, readings.size(), files.front());
      input.interval_s = k > 0 ? interval_s : judged_interval(interval_s, own, files.front());
      input.tps = merge_intervals(place_on_interval_grid(readings, k > 0 ? own : input.interval_s, files.front()), k);
      input.format = "ckptsim " + names.progress;
      input.has_skipped = std::find(header.begin(), header.end(), "skipped") != header.end();
      input.has_late = std::find(header.begin(), header.end(), "late") != header.end();
    }
  }
  if (input.tps.empty())
    throw std::runtime_error(fmt::format("{}: no rows after the header: nothing to analyze", files.front().string()));
  input.files = files;
  return input;
}

}  // namespace ckptsim::analysis
