// cli/validate/storm_run.cpp
#include "cli/validate/storm_run.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <string_view>

#include "analysis/csv.h"
#include "analysis/progress_line.h"
#include "analysis/tps_input.h"
#include "cli/folder/run_files.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// "2026-12-07 10:16:09.642 UTC": log_line_prefix's %m, as epoch seconds.
std::optional<double> log_epoch(const std::string& line) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0;
  double second = 0;
  char zone[8] = {};
  if (std::sscanf(line.c_str(), "%4d-%2d-%2d %2d:%2d:%lf %7s", &year, &month, &day, &hour, &minute, &second, zone) !=
          7 ||
      std::string_view(zone) != "UTC") {
    return std::nullopt;
  }
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  return static_cast<double>(timegm(&tm)) + second;
}

// The number after `key` ("write=" -> 53.712), or nullopt.
std::optional<double> number_after(const std::string& line, std::string_view key) {
  const auto at = line.find(key);
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stod(line.substr(at + key.size()));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<double> cell(const analysis::CsvTable& t, const std::vector<std::string>& row, const char* column) {
  const int c = t.column(column);
  if (c < 0 || row[static_cast<std::size_t>(c)].empty()) return std::nullopt;
  return std::stod(row[static_cast<std::size_t>(c)]);
}

}  // namespace

std::vector<CheckpointSpan> checkpoints_from_log(std::istream& log, double origin_epoch_s, const std::string& name) {
  std::vector<CheckpointSpan> out;
  std::optional<CheckpointSpan> open;
  std::string line;
  for (int number = 1; std::getline(log, line); ++number) {
    const bool starting = line.find("LOG:  checkpoint starting: ") != std::string::npos;
    const bool complete = line.find("LOG:  checkpoint complete: ") != std::string::npos;
    if (!starting && !complete) continue;
    const auto at = log_epoch(line);
    if (!at) throw RecordingError(name + ":" + std::to_string(number) + ": no %m timestamp (YYYY-MM-DD HH:MM:SS.mmm UTC)");
    if (starting) {
      if (open) out.push_back(*open);  // a start without its end: the server stopped
      open = CheckpointSpan{};
      open->start_s = *at - origin_epoch_s;
      open->shutdown = line.find("shutdown") != std::string::npos;
      continue;
    }
    const auto write = number_after(line, "write="), sync = number_after(line, "sync=");
    const auto buffers = number_after(line, "wrote ");
    if (!write || !sync || !buffers) {
      throw RecordingError(name + ":" + std::to_string(number) + ": a checkpoint complete line without wrote N buffers, write= and sync=");
    }
    if (!open) continue;  // its start came before the log began
    open->write_end_s = open->start_s + *write;
    open->sync_end_s = *open->write_end_s + *sync;
    open->buffers = static_cast<std::int64_t>(*buffers);
    out.push_back(*open);
    open.reset();
  }
  if (open) out.push_back(*open);
  return out;
}

StormRecording read_storm_recording(const fs::path& dir) {
  StormRecording r;
  r.dir = dir;
  r.name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
  const fs::path record = dir / "recording.json";
  std::ifstream in(record);
  if (!in) throw RecordingError(record.string() + ": cannot be read (a folder of scripts/record-storm holds it)");
  try {
    r.recording = nlohmann::ordered_json::parse(in);
  } catch (const std::exception& e) {
    throw RecordingError(record.string() + ": not JSON (" + e.what() + ")");
  }
  const fs::path progress = dir / "progress.log";
  analysis::TpsInput tps;
  try {
    tps = analysis::read_tps_input(run_files::tps_input_names(), {progress}, 1.0);
  } catch (const std::exception& e) {
    throw RecordingError(e.what());
  }
  if (tps.format.find("-P") == std::string::npos) {
    throw RecordingError(progress.string() + ": not a pgbench -P log (" + tps.format + ")");
  }
  r.real.tps = tps.tps;
  // The first line's time is the end of the run's first interval.
  std::ifstream lines(progress);
  std::string line;
  double first_end = 0;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (!line.starts_with("progress: ")) continue;
    first_end = analysis::parse_progress_line(line, progress, number).time_s;
    break;
  }
  if (first_end < 1e9) throw RecordingError(progress.string() + ": needs --progress-timestamp (epoch times)");
  const fs::path log_path = dir / run_files::kPostgresLog;  // the recording names it as a run folder does
  std::ifstream log(log_path);
  if (!log) throw RecordingError(log_path.string() + ": cannot be read");
  r.real.checkpoints = checkpoints_from_log(log, first_end - tps.interval_s, log_path.string());
  return r;
}

StormRun read_simulated_run(const fs::path& dir) {
  StormRun run;
  run.tps = analysis::read_tps_input(run_files::tps_input_names(), {dir / run_files::kProgressCsv}, 1.0).tps;
  const analysis::CsvTable t = analysis::read_csv(dir / run_files::kCheckpointsCsv);
  for (const auto& row : t.rows) {
    CheckpointSpan c;
    c.start_s = *cell(t, row, "start_s");
    c.write_end_s = cell(t, row, "write_end_s");
    c.sync_end_s = cell(t, row, "sync_end_s");
    c.buffers = static_cast<std::int64_t>(cell(t, row, "buffers").value_or(0));
    run.checkpoints.push_back(c);
  }
  return run;
}

}  // namespace ckptsim::cli
