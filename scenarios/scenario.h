// scenarios/scenario.h
//
// A scenario: the hardware, kernel, PostgreSQL and pgbench settings of one
// run, read from a JSON file with top-level keys hardware, os, postgres,
// pgbench, init, warmup (objects), grid (object), seed (integer), repeat
// (integer, scenarios/repeat.h), preset (list of names), an optional description and optional published figures
// (published.h). Anything else is an error.
//
// Layers, lowest first: built-in defaults < component presets (chosen by
// postgres.version, os.kernel, hardware.device) < the shipped presets named in
// the "preset" list, in order < --preset-file files, in order < the scenario
// file < --set < the grid point. A grid maps
// "section.key" to a list of values and expands to their cross product, the
// first key varying slowest; each point is resolved from scratch, so a grid
// over postgres.version takes each release's defaults. A grid's "chain": true
// and "order" (scenarios/chain.h) run the points on one host, one after another.
//
// Every error is collected and thrown together in one ScenarioError, each
// naming where the value came from: "/postgres/shared_buffers",
// "/grid/postgres.checkpoint_flush_after/1", "--set postgres.shared_buffers",
// "presets/postgres/9.6.json: /postgres/...".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/disk/device_config.h"
#include "models/disk/io_limits.h"
#include "models/os/os_config.h"
#include "models/pgbench/init.h"
#include "models/pgbench/pgbench_config.h"
#include "models/postgres/postgres_config.h"
#include "scenarios/presets.h"
#include "scenarios/published.h"
#include "scenarios/units.h"
#include "sim/time.h"

namespace ckptsim::scenarios {

struct HardwareConfig {
  std::int64_t cpus = 8;
  sim::Bytes ram = 16 * sim::kGiB;
  std::string device = "raid1-hdd-7200";  // a preset in presets/device/
  std::string wal_device = "";            // "" = WAL on the data device
  // The instance's own EBS limits in front of all its volumes (AWS
  // "Amazon EBS-optimized instances"), in the volume settings' units
  // (instance_iops, ...); none by default.
  disk::IoLimitsConfig instance;
};

struct Scenario {
  HardwareConfig hardware;
  disk::DeviceConfig device;
  disk::DeviceConfig wal_device;  // = device when hardware.wal_device is ""
  os::OsConfig os;
  postgres::PostgresConfig postgres;
  pgbench::PgbenchConfig pgbench;
  pgbench::InitConfig init;       // the start state: after pgbench -i and a restart
  pgbench::PgbenchConfig warmup;  // duration 0 = no warmup
  std::uint64_t seed = 1;
  // What resolving changed as the real program would without a word (pgbench
  // lowering -j to -c), for the plan's warnings; not a setting.
  std::vector<std::string> notes;
  // Normalised, every setting in its owner's units:
  // {"hardware":{...},"devices":{"data":{...},"wal":{...}},"os":{...},
  //  "postgres":{...},"pgbench":{...},"init":{...},"warmup":{...},"seed":N}
  json resolved;
};

struct GridPoint {
  std::string name;  // "checkpoint_sorting=true,checkpoint_flush_after=256kB"; "" without a grid
  std::vector<std::pair<std::string, json>> values;  // grid path ("postgres.checkpoint_sorting") -> value
  Scenario scenario;
  // With "repeat": N > 1, which repeat this is (1..N; 0 without repeats) and
  // the name of the point it repeats ("" for a scenario without a grid).
  int repeat = 0;
  std::string base_name;
  // The settings the host is built and warmed up with, when they differ from
  // the point's: its reloadable PostgreSQL grid values (cli/run/warmup_group.h)
  // keep the scenario's own during the warmup and come by a reload after it.
  std::optional<Scenario> warmup_host;
  const Scenario& host() const { return warmup_host ? *warmup_host : scenario; }
};

struct Plan {
  std::vector<std::string> grid_paths;
  // In running order: the grid's (the first key varying slowest), or a chain's "order".
  std::vector<GridPoint> points;
  // "chain": true: the points run one after another on one host, each from the
  // state the previous one left (one warmup, before the first); see chain.h.
  bool chained = false;
  std::vector<std::string> warnings;   // e.g. pasted settings that ckptsim does not model
  std::optional<Published> published;  // the figures of the experiment it reproduces (published.h)
  int repeat = 1;                      // "repeat": each point run this many times (scenarios/repeat.h)
  bool is_grid() const { return !grid_paths.empty() || repeat > 1; }
};

// The largest grid loaded unless the caller allows more (run / check --max-points).
inline constexpr std::uint64_t kDefaultMaxPoints = 10000;

struct LoadOptions {
  std::vector<std::string> sets;  // "postgres.shared_buffers=2GB"
  // --preset-file: fragments of the user's own, laid in order over the "preset" list.
  std::vector<std::filesystem::path> preset_files{};
  std::optional<std::uint64_t> seed{};           // overrides the scenario's
  std::uint64_t max_points = kDefaultMaxPoints;  // a larger grid is refused
};

class ScenarioError : public std::runtime_error {
 public:
  explicit ScenarioError(std::vector<std::string> all);
  std::vector<std::string> messages;
};

// A grid point's name: "key=value" per grid path (key without its section,
// value as written, strings unquoted, '/' -> '_'), joined by ",".
std::string point_name(const std::vector<std::pair<std::string, json>>& values);

Plan load_plan(const std::filesystem::path& file, const LoadOptions& options = {});
// A scenario file's text; errors in the JSON itself are reported under `label`.
Plan load_plan_text(const std::string& text, const std::string& label, const LoadOptions& options = {});
// `doc` as a scenario file holds it. Nothing is read relative to the file (the
// preset list names shipped presets only; files come through LoadOptions::preset_files).
Plan load_plan(const json& doc, const LoadOptions& options = {});

}  // namespace ckptsim::scenarios
