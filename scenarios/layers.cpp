// scenarios/layers.cpp
//
// Layers keep one JSON object per section; a later layer replaces a value
// in place (keeping the key where the user first wrote it) and takes over
// its origin.
#include "scenarios/layers.h"

#include <algorithm>

#include "scenarios/paste.h"
#include "scenarios/same_layer.h"

namespace ckptsim::scenarios {

Layers::Layers() {
  for (const std::string& name : kSections) {
    sections_[name] = json::object();
    origins_.emplace(name, Origins("/" + name));
  }
}

void Layers::set(const std::string& section, const std::string& key, const json& value, std::string where) {
  if (section == "os") {
    // dirty_ratio_handler: writing a ratio zeroes its bytes sysctl, so the later one wins.
    if (const auto bytes = bytes_zeroed_by(key)) {
      sections_.at(section)[*bytes] = 0;
      origins_.at(section).set(*bytes, where);
    }
  }
  sections_.at(section)[key] = value;
  origins_.at(section).set(key, std::move(where));
}

void Layers::set_under(const std::string& section, const std::string& key, const json& value, std::string where) {
  // Below every explicit value: no kernel write rule, which would clear a value laid above.
  if (has(section, key)) return;
  sections_.at(section)[key] = value;
  origins_.at(section).set(key, std::move(where));
}

void Layers::erase(const std::string& section, const std::string& key) { sections_.at(section).erase(key); }

bool Layers::has(const std::string& section, const std::string& key) const {
  return sections_.at(section).contains(key);
}

std::optional<std::pair<std::string, std::string>> split_setting_path(const std::string& path, const std::string& where,
                                                                      const Schemas& schemas, Errors& errors) {
  std::vector<std::string> all;
  for (const std::string& section : kSections) {
    for (const std::string& name : schemas.names(section)) all.push_back(section + "." + name);
  }
  const auto dot = path.find('.');
  const std::string section = dot == std::string::npos ? path : path.substr(0, dot);
  const std::string key = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (section == "warmup" && key == "scale") {
    errors.add(where, "the warmup uses the measured run's scale (set pgbench.scale)");
    return std::nullopt;
  }
  const std::vector<std::string> names = schemas.names(section);
  if (std::find(names.begin(), names.end(), key) != names.end()) return std::pair{section, key};
  const auto suggestion = nearest_name(path, all);
  errors.add(where, suggestion ? "unknown setting; did you mean " + *suggestion + "?"
                               : "unknown setting (expected section.key, e.g. postgres.shared_buffers)");
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> split_grid_path(const std::string& path, const std::string& where,
                                                                   const Schemas& schemas, Errors& errors,
                                                                   const std::string& pasted_refusal) {
  if (is_pasted_path(path)) {
    errors.add(where, pasted_refusal);
    return std::nullopt;
  }
  return split_setting_path(path, where, schemas, errors);
}

}  // namespace ckptsim::scenarios
