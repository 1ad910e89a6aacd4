// scenarios/presets.h
//
// Preset files: <home>/scenarios/presets/<kind>/<name>.json, each with a
// one-line "description" and the section(s) it sets. Kinds:
//   postgres/<version>  "postgres": that release's defaults (chosen by postgres.version)
//   os/<kernel>         "os": a kernel generation's defaults (chosen by os.kernel)
//   device/<name>       "device": a storage device (chosen by hardware.device / wal_device)
//   box/<name>          whole-scenario fragments named in a scenario's "preset" list
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scenarios/schema.h"
#include "scenarios/units.h"

namespace ckptsim::scenarios {

// The project folder holding scenarios/presets: $CKPTSIM_HOME if set, else
// two levels above the running binary (build/ckptsim) if presets are there,
// else the source tree this library was built from.
std::filesystem::path project_home();

struct PresetInfo {
  std::string kind, name, description;
  std::filesystem::path path;
};

// Every preset, sorted by kind, then by name in natural order (9.6 < 15).
std::vector<PresetInfo> list_presets();

// The names of one kind's presets, in the same order.
std::vector<std::string> preset_names(const std::string& kind);

// A JSON file parsed, or nullopt with an error
// "<label>: invalid JSON at line L, column C: <reason>" (or "cannot read").
std::optional<json> read_json_file(const std::filesystem::path& file, const std::string& label, Errors& errors);

// A JSON text parsed, with errors reported under `label` as above.
// Arrays and objects nested deeper than this are refused before parsing (a scenario needs 4).
inline constexpr int kMaxJsonDepth = 32;
// A scenario or preset is hand-written: a text larger than this is refused
// before it is read whole (the biggest shipped file is under 2 kB).
inline constexpr std::size_t kMaxJsonBytes = 1024 * 1024;
// The file's text, or nullopt with an error under `label` if it cannot be read or exceeds kMaxJsonBytes.
std::optional<std::string> read_json_text(const std::filesystem::path& file, const std::string& label, Errors& errors);
// The byte offset where `text` first nests deeper than kMaxJsonDepth, outside strings.
std::optional<std::size_t> json_too_deep(const std::string& text);
std::optional<json> parse_json_text(const std::string& text, const std::string& label, Errors& errors);

}  // namespace ckptsim::scenarios
