#include "scenarios/bundle_axis.h"

#include "scenarios/chain.h"
#include "scenarios/layers.h"

namespace ckptsim::scenarios {

bool is_bundle_axis(const std::string& key) { return key.find('.') == std::string::npos && !is_chain_key(key); }

std::vector<Bundle> read_bundle_axis(const std::string& axis, const json& bundles, const Schemas& schemas,
                                     Errors& errors) {
  const std::string where = "/grid/" + axis;
  if (!bundles.is_object() || bundles.empty()) {
    errors.add(where, shown(bundles) +
                          " is not a named axis of setting bundles (expected {\"NAME\": {\"section.key\": value, "
                          "...}, ...}, e.g. {\"c1\": {\"pgbench.clients\": 1}, \"c4\": {\"pgbench.clients\": 4}})");
    return {};
  }
  const std::size_t before = errors.size();
  std::vector<Bundle> out;
  for (const auto& [name, settings] : bundles.items()) {
    const std::string at = where + "/" + name;
    if (!settings.is_object()) {
      errors.add(at, shown(settings) + " is not an object of setting paths and values (e.g. {\"pgbench.clients\": 4})");
      continue;
    }
    Bundle bundle{.name = name, .settings = {}};
    for (const auto& [path, value] : settings.items()) {
      const std::string in = at + "/" + path;
      const auto setting = split_grid_path(path, in, schemas, errors,
                                           "pasted text cannot be part of a bundle (it would lay a whole command "
                                           "line over --set); give the settings it holds, e.g. \"pgbench.rate\"");
      if (setting) bundle.settings.push_back({path, setting->first, setting->second, value, in});
    }
    out.push_back(std::move(bundle));
  }
  if (errors.size() != before) return {};
  return out;
}

}  // namespace ckptsim::scenarios
