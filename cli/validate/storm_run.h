// cli/validate/storm_run.h
//
// One run of a checkpoint storm, real or simulated, as `ckptsim validate`
// compares them: tps per second of the measured run, and its checkpoints'
// phases on the same clock (seconds from the measured run's start).
//
// A real recording (scripts/record-storm, tests/data/storm/README.md) gives
// progress.log (pgbench -P 1 --progress-timestamp: interval i ends at the
// i-th line's epoch time, so the run starts one interval before the first
// line) and postgres.log (log_checkpoints: "checkpoint starting" at the
// start, "checkpoint complete: ... write=W s, sync=S s" at the end: the
// write phase is [start, start + W], the sync phase the S seconds after it).
// A ckptsim run folder gives progress.csv and checkpoints.csv, which already
// are on that clock.
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ckptsim::cli {

struct CheckpointSpan {
  double start_s = 0;
  std::optional<double> write_end_s;  // unknown: still writing at the end of what was seen
  std::optional<double> sync_end_s;
  std::int64_t buffers = 0;           // "wrote N buffers" (complete checkpoints)
  bool shutdown = false;
  bool complete() const { return sync_end_s.has_value(); }
};

struct StormRun {
  std::vector<double> tps;  // per second of the measured run
  std::vector<CheckpointSpan> checkpoints;
  double duration_s() const { return static_cast<double>(tps.size()); }
};

// A recording that cannot be read: `validate` exits 2, naming the file.
struct RecordingError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct StormRecording {
  std::string name;  // the folder's name
  std::filesystem::path dir;
  nlohmann::ordered_json recording;  // recording.json
  StormRun real;
};

// Reads a recording folder; throws RecordingError.
StormRecording read_storm_recording(const std::filesystem::path& dir);
// Reads a ckptsim run folder (progress.csv, checkpoints.csv); throws std::runtime_error.
StormRun read_simulated_run(const std::filesystem::path& dir);
// The log_checkpoints spans of a server log, on a clock whose 0 is `origin_epoch_s`.
std::vector<CheckpointSpan> checkpoints_from_log(std::istream& log, double origin_epoch_s,
                                                 const std::string& name);

}  // namespace ckptsim::cli
