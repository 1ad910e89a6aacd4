// scenarios/resolve.h
//
// Turning one stack of layers (one grid point) into a Scenario: put the
// component presets chosen by postgres.version, os.kernel and
// hardware.device under the explicit values, read every section through its
// schema, then apply the checks that span settings (threads <= clients,
// duration xor transactions, shared_buffers within RAM).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "scenarios/layers.h"
#include "scenarios/scenario.h"
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

// Component preset files (presets/<kind>/<name>.json), each read and checked
// once per load however many grid points use it.
class PresetFiles {
 public:
  explicit PresetFiles(std::filesystem::path presets_dir) : dir_(std::move(presets_dir)) {}

  // The file's `kind` section (e.g. its "postgres" object), or nullptr after
  // reporting why not. `kind` is postgres, os or device.
  const json* section(const std::string& kind, const std::string& name, Errors& errors);
  std::string description(const std::string& kind, const std::string& name);
  // The names of one kind's presets, listed once.
  const std::vector<std::string>& names(const std::string& kind);

  static std::string label(const std::string& kind, const std::string& name) {
    return "presets/" + kind + "/" + name + ".json";
  }

 private:
  const json* load(const std::string& kind, const std::string& name, Errors& errors);

  std::filesystem::path dir_;
  std::map<std::string, std::optional<json>> files_;
  std::map<std::string, Errors> problems_;  // replayed to each point that uses a bad file
  std::map<std::string, std::vector<std::string>> names_;
};

Scenario resolve(Layers layers, const Schemas& schemas, PresetFiles& presets, Errors& errors);

}  // namespace ckptsim::scenarios
