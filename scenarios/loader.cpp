// scenarios/loader.cpp
//
// load_plan: stacks the layers of a scenario (preset list, the file, --set),
// expands the grid and resolves each point from scratch. Problems anywhere
// are collected (once each, though a grid may meet them at every point) and
// thrown together; a plan is returned only when there are none.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "scenarios/bundle_axis.h"
#include "scenarios/chain.h"
#include "scenarios/layers.h"
#include "scenarios/paste.h"
#include "scenarios/presets.h"
#include "scenarios/published.h"
#include "scenarios/repeat.h"
#include "scenarios/resolve.h"
#include "scenarios/same_layer.h"
#include "scenarios/scenario.h"
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kTopLevelKeys{"hardware",    "device",    "os",    "postgres", "pgbench",
                                             "init",        "warmup",    "grid",  "seed",     "preset",
                                             "description", "published", "repeat"};
const std::vector<std::string> kFragmentKeys{"hardware", "device", "os",     "postgres",
                                             "pgbench",  "init",   "warmup", "description"};

std::string joined(const std::vector<std::string>& words, const std::string& separator) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : separator) + word;
  return out;
}

// The key of a section that holds pasted text, and how to read it.
std::string paste_key(const std::string& section) {
  if (section == "postgres") return "conf";
  if (section == "os") return "sysctl";
  if (section == "pgbench" || section == "warmup") return "command";
  return "";
}

// Lays a section's pasted text as settings; the real names it ignores go
// into one warning. Returns the settings laid.
std::vector<PastedSetting> lay_pasted(const std::string& section, const json& text, const std::string& where,
                                      const Schemas& schemas, Layers& layers, Errors& errors,
                                      std::vector<std::string>& warnings) {
  if (!text.is_string()) {
    errors.add(where, shown(text) + " is not a string of " +
                          (section == "postgres" ? "postgresql.conf lines"
                           : section == "os"     ? "sysctl.conf lines"
                                                 : "a pgbench command line"));
    return {};
  }
  const std::string& body = text.get_ref<const std::string&>();
  const Pasted pasted = section == "postgres" ? paste_postgresql_conf(body, where, schemas.names(section), errors)
                        : section == "os"     ? paste_sysctl_conf(body, where, schemas.names(section), errors)
                                              : paste_pgbench_command(body, where, section == "pgbench", errors);
  for (const PastedSetting& setting : pasted.settings) {
    if (setting.value.is_null()) {
      layers.erase(section, setting.key);
    } else {
      layers.set(section, setting.key, setting.value, setting.where);
    }
  }
  if (!pasted.unmodelled.empty()) {
    warnings.push_back(where + ": ckptsim does not model " + joined(pasted.unmodelled, ", ") + "; ignored");
  }
  warnings.insert(warnings.end(), pasted.notes.begin(), pasted.notes.end());
  return pasted.settings;
}

// os.blkio_throttle (or os.wal_blkio_throttle) as an object of its limits
// ({"write_iops": 300}) or as pasted io.max / blkio.throttle / systemd
// text: the flat keys blkio_throttle.write_iops, ... that --set and a grid use.
std::vector<Written> lay_blkio_throttle(const std::string& name, const json& value, const std::string& where,
                                        Layers& layers, Errors& errors) {
  std::vector<Written> written;
  const std::string prefix = name + ".";
  if (value.is_object()) {
    for (const auto& [limit, setting] : value.items()) {
      layers.set("os", prefix + limit, setting, where + "/" + limit);
      written.push_back({prefix + limit, setting, where + "/" + limit, false});
    }
  } else if (value.is_string()) {
    for (const PastedSetting& p : paste_blkio_throttle(value.get<std::string>(), where, prefix, errors).settings) {
      layers.set("os", p.key, p.value, p.where);
      written.push_back({p.key, p.value, p.where, true});
    }
  } else {
    errors.add(where, shown(value) +
                          " is not an object of limits (read_iops, write_iops, read_bps, write_bps) or a pasted "
                          "io.max, blkio.throttle.*_device or systemd IO*Max= line");
  }
  return written;
}

// Lays the sections of a scenario file (prefix "") or of a preset-list
// fragment (prefix "<file>: "), over what lies below. A section's pasted text
// is laid first, then its JSON keys; one setting written both ways is an
// error (same_layer.h), so the order only matters for keys a text clears.
void lay_sections(const json& doc, const std::string& prefix, const std::vector<std::string>& allowed,
                  const Schemas& schemas, Layers& layers, Errors& errors, std::vector<std::string>& warnings) {
  for (const auto& [key, value] : doc.items()) {
    const std::string where = prefix + "/" + key;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      const auto suggestion = nearest_name(key, allowed);
      errors.add(where, suggestion ? "unknown section; did you mean " + *suggestion + "?"
                                   : "unknown section (expected " + joined(allowed, ", ") + ")");
    } else if (key == "description") {
      if (!value.is_string()) errors.add(where, shown(value) + " is not a string");
    } else if (key == "published" || key == "repeat") {
      continue;  // the published figures, read once the points are known (published.h)
    } else if (std::find(kSections.begin(), kSections.end(), key) != kSections.end()) {
      if (!value.is_object()) {
        errors.add(where, shown(value) + " is not an object of settings");
        continue;
      }
      const std::string pasted = paste_key(key);
      std::vector<Written> written;
      if (value.contains(pasted)) {
        for (const PastedSetting& p :
             lay_pasted(key, value.at(pasted), where + "/" + pasted, schemas, layers, errors, warnings)) {
          if (!p.value.is_null()) written.push_back({p.key, p.value, p.where, true});
        }
      }
      for (const auto& [name, setting] : value.items()) {
        if (name == pasted) continue;
        if (key == "os" && (name == "blkio_throttle" || name == "wal_blkio_throttle")) {
          for (const Written& w : lay_blkio_throttle(name, setting, where + "/" + name, layers, errors)) {
            written.push_back(w);
          }
          continue;
        }
        layers.set(key, name, setting, where + "/" + name);
        written.push_back({name, setting, where + "/" + name, false});
      }
      check_one_layer(key, written, errors);
    }
  }
}

// A whole-scenario fragment (a box preset or a --preset-file), errors under `label`.
void lay_fragment(const fs::path& file, const std::string& label, const Schemas& schemas, Layers& layers,
                  Errors& errors, std::vector<std::string>& warnings) {
  const auto doc = read_json_file(file, label, errors);
  if (!doc) return;
  if (!doc->is_object()) {
    errors.add(label, "is not a JSON object");
    return;
  }
  lay_sections(*doc, label + ": ", kFragmentKeys, schemas, layers, errors, warnings);
}

// The scenario's "preset" list: shipped whole-scenario fragments, later ones
// winning. A scenario may come from anyone, so its list reads no file but the
// shipped ones: a file of the user's own is named on the command line
// (--preset-file), where the user sees it.
void lay_preset_list(const json& list, const Schemas& schemas, Layers& layers, Errors& errors,
                     std::vector<std::string>& warnings) {
  if (!list.is_array()) {
    errors.add("/preset", shown(list) + " is not a list of preset names");
    return;
  }
  const fs::path presets_dir = project_home() / "scenarios" / "presets";
  std::vector<std::string> available;
  for (const PresetInfo& info : list_presets()) {
    if (info.kind != "device") available.push_back(info.kind + "/" + info.name);
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "/preset/" + std::to_string(i);
    if (!list[i].is_string()) {
      errors.add(where, shown(list[i]) + " is not a preset name");
      continue;
    }
    const std::string name = list[i].get<std::string>();
    if (std::find(available.begin(), available.end(), name) == available.end()) {
      const bool looks_like_file = name.ends_with(".json") || name.find("..") != std::string::npos ||
                                   name.starts_with("/") || name.starts_with("~");
      errors.add(where, (looks_like_file ? shown(list[i]) +
                                               " is not a shipped preset: the list names presets, "
                                               "never files; give a file of your own with "
                                               "--preset-file " +
                                               name
                                         : "unknown preset " + shown(list[i])) +
                            " (available: " + joined(available, ", ") + ")");
      continue;
    }
    lay_fragment(presets_dir / (name + ".json"), "presets/" + name + ".json", schemas, layers, errors, warnings);
  }
}

// --preset-file PATH: the user's own fragments, over the preset list, under the scenario's values.
void lay_preset_files(const std::vector<fs::path>& files, const Schemas& schemas, Layers& layers, Errors& errors,
                      std::vector<std::string>& warnings) {
  for (const fs::path& file : files) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      errors.add("--preset-file " + file.string(),
                 fs::exists(file, ec) ? "not a regular file (expected a JSON file)" : "no such file");
      continue;
    }
    lay_fragment(file, file.string(), schemas, layers, errors, warnings);
  }
}

// --set PATH=VALUE: VALUE is JSON if it parses as JSON, else a string.
void lay_sets(const std::vector<std::string>& sets, const Schemas& schemas, Layers& layers, Errors& errors,
              std::vector<std::string>& warnings) {
  for (const std::string& set : sets) {
    const auto equals = set.find('=');
    if (equals == std::string::npos) {
      errors.add("--set " + set, "expected PATH=VALUE, e.g. postgres.shared_buffers=2GB");
      continue;
    }
    const std::string path = set.substr(0, equals);
    const std::string text = set.substr(equals + 1);
    const std::string where = "--set " + path;
    // --set pgbench.command="pgbench -c 4 -T 60": pasted text, as in the file.
    if (is_pasted_path(path)) {
      lay_pasted(path.substr(0, path.find('.')), json(text), where, schemas, layers, errors, warnings);
      continue;
    }
    const auto setting = split_setting_path(path, where, schemas, errors);
    if (!setting) continue;
    if (json_too_deep(text)) {
      errors.add(where, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      continue;
    }
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;
    layers.set(setting->first, setting->second, value, where);
  }
}

struct GridAxis {
  std::string path, section, key;
  std::vector<json> values;     // for a bundle axis: the bundles' names
  std::vector<Bundle> bundles;  // a named axis of setting bundles (bundle_axis.h); empty for a setting path
};

// Lays a grid point's value of `axis`: one setting, or each setting of a bundle.
void lay_axis_value(const GridAxis& axis, std::size_t at, Layers& layers) {
  if (axis.bundles.empty()) {
    layers.set(axis.section, axis.key, axis.values[at], "/grid/" + axis.path + "/" + std::to_string(at));
    return;
  }
  for (const BundleSetting& s : axis.bundles[at].settings) layers.set(s.section, s.key, s.value, s.where);
}

// The setting paths an axis varies, each with its values: for a bundle axis,
// each path its bundles set (a path may not vary on two axes: the later would
// silently win).
std::vector<std::pair<std::string, std::vector<json>>> varied_paths(const GridAxis& axis) {
  if (axis.bundles.empty()) return {{axis.path, axis.values}};
  std::vector<std::pair<std::string, std::vector<json>>> out;
  for (const Bundle& bundle : axis.bundles) {
    for (const BundleSetting& s : bundle.settings) {
      auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == s.path; });
      if (it == out.end()) it = out.insert(out.end(), {s.path, {}});
      it->second.push_back(s.value);
    }
  }
  return out;
}

std::vector<GridAxis> read_grid(const json& grid, const Schemas& schemas, Errors& errors) {
  std::vector<GridAxis> axes;
  if (!grid.is_object()) {
    errors.add("/grid", shown(grid) + " is not an object of setting paths");
    return axes;
  }
  for (const auto& [path, values] : grid.items()) {
    if (is_chain_key(path)) continue;  // chain.h
    const std::string where = "/grid/" + path;
    if (is_bundle_axis(path) && values.is_object()) {
      std::vector<Bundle> bundles = read_bundle_axis(path, values, schemas, errors);
      if (bundles.empty()) continue;
      GridAxis axis{path, "", "", {}, std::move(bundles)};
      for (const Bundle& bundle : axis.bundles) axis.values.emplace_back(bundle.name);
      axes.push_back(std::move(axis));
      continue;
    }
    // postgres.conf, os.sysctl, pgbench.command: text that sets many settings, no one setting to vary.
    const auto setting =
        split_grid_path(path, where, schemas, errors,
                        "pasted text (postgres.conf, os.sysctl, pgbench.command, warmup.command) cannot be a grid "
                        "axis; vary the settings it holds, one axis each, e.g. \"postgres.shared_buffers\"");
    if (!setting && is_pasted_path(path)) continue;  // refused whatever its values
    if (!values.is_array() || values.empty()) {
      errors.add(where, shown(values) + " is not a non-empty list of values");
      continue;
    }
    if (!setting) continue;
    // The same value twice would run the same point twice, into one folder.
    // Looked up by its JSON text (a number by its value, as json's == compares
    // 1 and 1.0), so that a long axis is checked in n log n, not n^2.
    bool repeated = false;
    std::map<std::string, std::size_t> first_of;
    for (std::size_t i = 0; i < values.size() && !repeated; ++i) {
      const json& v = values[i];
      const std::string key = v.is_number() ? fmt::format("#{}", v.get<double>()) : v.dump();
      const auto [at, fresh] = first_of.emplace(key, i);
      if (!fresh) {
        errors.add(where + "/" + std::to_string(i), shown(v) + " repeats " + where + "/" + std::to_string(at->second));
        repeated = true;
      }
    }
    if (repeated) continue;
    axes.push_back({path, setting->first, setting->second, {values.begin(), values.end()}, {}});
  }
  std::vector<std::pair<std::string, std::vector<json>>> paths;
  std::map<std::string, std::string> varied_by;  // setting path -> the axis that varies it
  for (const GridAxis& axis : axes) {
    for (auto& [path, values] : varied_paths(axis)) {
      const auto [other, fresh] = varied_by.emplace(path, axis.path);
      if (!fresh) {
        errors.add("/grid/" + axis.path,
                   "varies " + path + ", which /grid/" + other->second + " also varies; give each setting on one axis");
      }
      paths.emplace_back(path, std::move(values));
    }
  }
  check_grid_pairs(paths, errors);
  return axes;
}

std::optional<std::uint64_t> read_seed(const json& value, Errors& errors, const std::string& where = "/seed") {
  std::string expected;
  const auto seed = value.is_string() ? std::nullopt : parse_integer(value, &expected);
  if (!seed) {
    errors.add(where, shown(value) + " " + (expected.empty() ? "is not an integer" : expected));
    return std::nullopt;
  }
  if (*seed < 0) {
    errors.add(where, shown(value) + " is out of range (at least 0)");
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(*seed);
}

// --set grid.chain=true / --set grid.order=[...]: laid over the file's grid
// (the other --set paths name settings). Returns the grid to read.
json grid_with_sets(const json& doc, std::vector<std::string>& sets, Errors& errors) {
  json grid = doc.contains("grid") ? doc.at("grid") : json();
  std::vector<std::string> settings;
  for (const std::string& set : sets) {
    const std::string path = set.substr(0, set.find('='));
    if (path != "grid.chain" && path != "grid.order") {
      settings.push_back(set);
      continue;
    }
    if (!grid.is_object()) {
      errors.add("--set " + path, "the scenario has no grid to chain");
      continue;
    }
    const std::string text = set.size() > path.size() ? set.substr(path.size() + 1) : "";
    const json value = json_too_deep(text) ? json() : json::parse(text, nullptr, false);
    if (value.is_discarded() || value.is_null()) {
      errors.add("--set " + path, "\"" + text + "\" is not JSON (e.g. grid.chain=true, grid.order='[3,2,1,0]')");
      continue;
    }
    grid[path.substr(5)] = value;
  }
  sets = std::move(settings);
  return grid;
}

// A chained grid's axes must be changeable on a running host (chain.h). Returns whether they are.
bool check_chain_axes(const std::vector<GridAxis>& axes, Errors& errors) {
  const std::size_t before = errors.size();
  if (axes.empty()) errors.add("/grid/chain", "a chain needs at least one setting path with values to run through");
  for (const GridAxis& axis : axes) {
    if (axis.bundles.empty()) {
      const std::string why = chain_refusal(axis.section, axis.key);
      if (!why.empty()) errors.add("/grid/" + axis.path, "cannot vary along a chained grid: " + why);
    }
    for (const Bundle& bundle : axis.bundles) {
      for (const BundleSetting& s : bundle.settings) {
        const std::string why = chain_refusal(s.section, s.key);
        if (!why.empty()) errors.add(s.where, "cannot vary along a chained grid: " + why);
      }
    }
  }
  return errors.size() == before;
}

// A chain's points in its "order" (left in the grid's order when it has errors).
void put_in_chain_order(Plan& plan, const ChainSpec& chain, Errors& errors) {
  std::vector<std::string> names;
  for (const GridPoint& point : plan.points) names.push_back(point.name);
  std::vector<GridPoint> ordered;
  for (const std::size_t i : chain_order(chain, names, errors)) ordered.push_back(std::move(plan.points[i]));
  if (ordered.size() == names.size()) plan.points = std::move(ordered);
}

// --set NAME=VALUE for a top-level key (repeat, seed): taken out of the setting
// paths, each value read as JSON when it parses (else as text), in order.
std::vector<json> top_level_sets(std::vector<std::string>& sets, const std::string& name) {
  std::vector<json> values;
  std::vector<std::string> settings;
  for (const std::string& set : sets) {
    if (set.substr(0, set.find('=')) != name) {
      settings.push_back(set);
      continue;
    }
    const std::string text = set.size() > name.size() ? set.substr(name.size() + 1) : "";
    const json parsed = json_too_deep(text) ? json(text) : json::parse(text, nullptr, false);
    values.push_back(parsed.is_discarded() ? json(text) : parsed);
  }
  sets = std::move(settings);
  return values;
}

// The scenario's seed: 1, the file's "seed", --set seed=N, --seed (the option made for it), the later winning.
std::uint64_t plan_seed(const json& doc, const std::optional<std::uint64_t>& set_seed, const LoadOptions& options,
                        Errors& errors) {
  std::uint64_t seed = 1;
  if (doc.contains("seed")) seed = read_seed(doc.at("seed"), errors).value_or(seed);
  if (set_seed) seed = *set_seed;
  if (options.seed) seed = *options.seed;
  return seed;
}

// Whether a grid axis is a PostgreSQL setting a reload applies: a point's
// value then comes after the warmup, which all points of a group share (cli/run/warmup_group.h).
bool reloadable_axis(const GridAxis& axis) {
  return axis.section == "postgres" && chain_refusal(axis.section, axis.key).empty();
}

constexpr std::size_t kMaxPointName = 255;  // NAME_MAX: a point names a folder

}  // namespace

bool is_pasted_path(const std::string& path) {
  const auto dot = path.find('.');
  return dot != std::string::npos && paste_key(path.substr(0, dot)) == path.substr(dot + 1);
}

std::string point_name(const std::vector<std::pair<std::string, json>>& values) {
  std::string name;
  for (const auto& [path, value] : values) {
    std::string text =
        value.is_string() ? value.get<std::string>() : value.dump(-1, ' ', false, json::error_handler_t::replace);
    std::replace(text.begin(), text.end(), '/', '_');  // a point names a folder
    const auto dot = path.find('.');
    name += (name.empty() ? "" : ",") + (dot == std::string::npos ? path : path.substr(dot + 1)) + "=" + text;
  }
  return name;
}

ScenarioError::ScenarioError(std::vector<std::string> all)
    : std::runtime_error(joined(all, "\n")), messages(std::move(all)) {}

namespace {

// Refuses a grid too large to hold before building it (each point resolves a whole scenario).
void refuse_too_many_points(const std::vector<GridAxis>& axes, std::uint64_t max_points, Errors& errors) {
  std::uint64_t points = 1;
  bool overflow = false;
  for (const GridAxis& axis : axes) overflow |= __builtin_mul_overflow(points, axis.values.size(), &points);
  if (overflow || points > max_points) {
    errors.add("/grid", (overflow ? std::string("more than 2^64") : std::to_string(points)) +
                            " points is more than --max-points (" + std::to_string(max_points) +
                            "); pass a larger --max-points to run it");
    throw ScenarioError(errors.messages());
  }
}

// The grid point where the odometer `at` stands: the axes' values laid over `base` and
// resolved, with the warmup's settings beside when the reloadable values change them.
GridPoint make_point(const std::vector<GridAxis>& axes, const std::vector<std::size_t>& at, const Layers& base,
                     bool any_reloadable, std::uint64_t seed, const Schemas& schemas, PresetFiles& presets,
                     Errors& errors) {
  GridPoint point;
  Layers layers = base;
  Layers host_layers = base;  // without the reloadable axes: the warmup's
  for (std::size_t i = 0; i < axes.size(); ++i) {
    lay_axis_value(axes[i], at[i], layers);
    if (!reloadable_axis(axes[i])) lay_axis_value(axes[i], at[i], host_layers);  // a bundle is never reloadable
    point.values.emplace_back(axes[i].path, axes[i].values[at[i]]);
  }
  point.name = point_name(point.values);
  // A name becomes a folder, a line on the terminal, a plot's title and a
  // page's heading: a control character (ESC, BEL, a line break) would reach
  // a terminal raw or break plot.gp.
  if (const auto bad = std::find_if(point.name.begin(), point.name.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
      bad != point.name.end()) {
    errors.add("/grid", fmt::format("the point name {} holds a control character (U+{:04X}): a grid value or bundle "
                                    "name becomes a folder, a terminal line and a plot title; use printable characters",
                                    shown(json(point.name)), static_cast<unsigned char>(*bad)));
    throw ScenarioError(errors.messages());
  }
  if (point.name.size() > kMaxPointName) {
    errors.add("/grid", "the point folder name \"" + point.name.substr(0, 60) + "...\" is " +
                            std::to_string(point.name.size()) + " bytes, more than a file name can hold (" +
                            std::to_string(kMaxPointName) + ")");
    throw ScenarioError(errors.messages());
  }
  const std::size_t errors_before = errors.size();
  point.scenario = resolve(std::move(layers), schemas, presets, errors);
  point.scenario.seed = seed;
  point.scenario.resolved["seed"] = seed;
  if (any_reloadable && errors.size() == errors_before) {
    // The warmup's settings; when they do not resolve alone (a check that
    // spans settings), the point warms up with its own.
    Errors host_errors;
    Scenario host = resolve(std::move(host_layers), schemas, presets, host_errors);
    host.seed = seed;
    host.resolved["seed"] = seed;
    if (host_errors.empty() && host.resolved != point.scenario.resolved) point.warmup_host = std::move(host);
  }
  return point;
}

// The errors, each once, in the order first given.
std::vector<std::string> unique_messages(const Errors& errors) {
  std::vector<std::string> unique;
  std::set<std::string> seen;
  for (const std::string& message : errors.messages()) {
    if (seen.insert(message).second) unique.push_back(message);
  }
  return unique;
}

}  // namespace

Plan load_plan(const json& doc, const LoadOptions& options) {
  if (!doc.is_object()) throw ScenarioError({"/: " + shown(doc) + " is not a scenario (a JSON object of sections)"});
  Errors errors;
  const Schemas schemas = make_schemas();

  std::vector<std::string> sets = options.sets;
  const json grid = grid_with_sets(doc, sets, errors);
  std::optional<int> repeat;  // the last --set of each wins
  for (const json& set : top_level_sets(sets, "repeat")) repeat = read_repeat(set, "--set repeat", errors);
  std::optional<std::uint64_t> set_seed;
  for (const json& set : top_level_sets(sets, "seed")) set_seed = read_seed(set, errors, "--set seed");
  if (!repeat && doc.contains("repeat")) repeat = read_repeat(doc.at("repeat"), "/repeat", errors);
  const ChainSpec chain = read_chain(grid, errors);

  Layers base;
  std::vector<std::string> warnings;
  if (doc.contains("preset")) lay_preset_list(doc.at("preset"), schemas, base, errors, warnings);
  lay_preset_files(options.preset_files, schemas, base, errors, warnings);
  lay_sections(doc, "", kTopLevelKeys, schemas, base, errors, warnings);
  lay_sets(sets, schemas, base, errors, warnings);

  const std::uint64_t seed = plan_seed(doc, set_seed, options, errors);

  const std::vector<GridAxis> axes = grid.is_null() ? std::vector<GridAxis>{} : read_grid(grid, schemas, errors);
  const bool chain_ok = chain.chained && check_chain_axes(axes, errors);
  if (chain.chained && repeat.value_or(1) > 1)
    errors.add("/repeat", "a chained grid runs once on one host; run it again with another --seed instead");
  const bool any_reloadable = !chain.chained && std::any_of(axes.begin(), axes.end(), reloadable_axis);
  Plan plan;
  plan.warnings = std::move(warnings);
  for (const GridAxis& axis : axes) plan.grid_paths.push_back(axis.path);
  refuse_too_many_points(axes, options.max_points, errors);

  // Odometer over the axes, the last one turning fastest.
  PresetFiles presets(project_home() / "scenarios" / "presets");
  std::vector<std::size_t> at(axes.size(), 0);
  std::map<std::string, std::string> resolved_points;  // a point's resolved settings as JSON text: its name
  std::map<std::string, std::string> point_folders;    // a point's folder name: its values as written
  for (;;) {
    const std::size_t errors_before = errors.size();
    GridPoint point = make_point(axes, at, base, any_reloadable, seed, schemas, presets, errors);
    // Values written differently that resolve alike ("1GB" and "1024MB") would run one point twice.
    // (A point that did not resolve is not compared: its errors say why.)
    const auto [same, fresh] = resolved_points.emplace(point.scenario.resolved.dump(), point.name);
    if (!fresh && errors.size() == errors_before) {
      errors.add("/grid", "duplicate points: \"" + point.name + "\" resolves to the same settings as \"" +
                              same->second + "\" (the values differ only in how they are written)");
    }
    // Values whose folder names are the same ("a/b" and "a_b": '/' becomes '_') would run into one folder.
    std::string written;
    for (const auto& [path, value] : point.values) {
      written += (written.empty() ? "" : ", ") + path + " = " + value.dump(-1, ' ', false, json::error_handler_t::replace);
    }
    const auto [other, named_first] = point_folders.emplace(point.name, written);
    if (!named_first && other->second != written) {
      errors.add("/grid", "the points " + other->second + " and " + written + " both run into the folder \"" +
                              point.name + "\" ('/' becomes '_' in a folder name): give them values that differ there");
    }
    for (const std::string& note : point.scenario.notes) {  // once, however many points it applies to
      if (std::find(plan.warnings.begin(), plan.warnings.end(), note) == plan.warnings.end())
        plan.warnings.push_back(note);
    }
    plan.points.push_back(std::move(point));

    std::size_t turning = axes.size();
    while (turning > 0 && ++at[turning - 1] == axes[turning - 1].values.size()) at[--turning] = 0;
    if (turning == 0) break;
  }
  if (chain_ok) put_in_chain_order(plan, chain, errors);
  plan.chained = chain.chained;
  std::vector<std::string> point_names;
  for (const GridPoint& point : plan.points) point_names.push_back(point.name);
  plan.published = read_published(doc, point_names, errors);
  plan.repeat = repeat.value_or(1);
  plan.points = repeated_points(std::move(plan.points), plan.repeat);

  if (!errors.empty()) throw ScenarioError(unique_messages(errors));
  return plan;
}

Plan load_plan_text(const std::string& text, const std::string& label, const LoadOptions& options) {
  Errors errors;
  const auto doc = parse_json_text(text, label, errors);
  if (!doc) throw ScenarioError(errors.messages());
  return load_plan(*doc, options);
}

Plan load_plan(const fs::path& file, const LoadOptions& options) {
  Errors errors;
  const auto text = read_json_text(file, file.string(), errors);
  if (!text) throw ScenarioError(errors.messages());
  return load_plan_text(*text, file.string(), options);
}

}  // namespace ckptsim::scenarios
