// scenarios/layers.h
//
// A scenario's settings as the layers are stacked: per section, the merged
// values (in the order first written) and where each came from, so that an
// error about a value names the file, --set or grid entry that put it there.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "scenarios/schema.h"
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

class Layers {
 public:
  Layers();

  // Puts `value` at section.key over whatever is there.
  void set(const std::string& section, const std::string& key, const json& value, std::string where);
  // Puts `value` at section.key only if no layer has set it: a component
  // preset lies under the scenario's explicit values.
  void set_under(const std::string& section, const std::string& key, const json& value, std::string where);
  void erase(const std::string& section, const std::string& key);

  bool has(const std::string& section, const std::string& key) const;
  const json& section(const std::string& name) const { return sections_.at(name); }
  const Origins& origins(const std::string& name) const { return origins_.at(name); }

 private:
  std::map<std::string, json> sections_;
  std::map<std::string, Origins> origins_;
};

// "os.vm.dirty_ratio" -> ("os", "vm.dirty_ratio"): split at the first dot.
// Checks that it names a known setting; if not, reports it under `where`
// (with the nearest known path) and returns nullopt.
std::optional<std::pair<std::string, std::string>> split_setting_path(const std::string& path, const std::string& where,
                                                                      const Schemas& schemas, Errors& errors);

// split_setting_path for a grid entry (an axis or a bundle's setting): pasted
// text (postgres.conf, pgbench.command, ...) names no one setting and is
// refused under `where` with `pasted_refusal`.
std::optional<std::pair<std::string, std::string>> split_grid_path(const std::string& path, const std::string& where,
                                                                   const Schemas& schemas, Errors& errors,
                                                                   const std::string& pasted_refusal);

}  // namespace ckptsim::scenarios
