#include "scenarios/published.h"

#include <algorithm>
#include <cmath>

namespace ckptsim::scenarios {

namespace {

std::optional<double> positive_number(const json& value, const std::string& where, Errors& errors) {
  if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
    errors.add(where, shown(value) + " is not a number of at least 0");
    return std::nullopt;
  }
  return value.get<double>();
}

std::optional<std::string> text(const json& section, const std::string& key, const std::string& where, Errors& errors,
                                bool required) {
  if (!section.contains(key)) {
    if (required) errors.add(where + "/" + key, "is missing (expected a string)");
    return std::nullopt;
  }
  if (!section.at(key).is_string()) {
    errors.add(where + "/" + key, shown(section.at(key)) + " is not a string");
    return std::nullopt;
  }
  return section.at(key).get<std::string>();
}

}  // namespace

std::optional<Published> read_published(const json& doc, const std::vector<std::string>& point_names, Errors& errors) {
  if (!doc.contains("published")) return std::nullopt;
  const json& section = doc.at("published");
  const std::string where = "/published";
  if (!section.is_object()) {
    errors.add(where, shown(section) + " is not an object (expected {\"label\", \"points\": {...}})");
    return std::nullopt;
  }
  const std::size_t before = errors.size();
  Published out;
  for (const auto& [key, value] : section.items()) {
    if (key != "label" && key != "source" && key != "band_pct" && key != "points")
      errors.add(where + "/" + key, "unknown key (expected label, source, band_pct, points)");
  }
  out.label = text(section, "label", where, errors, true).value_or("");
  out.source = text(section, "source", where, errors, false).value_or("");
  if (section.contains("band_pct"))
    out.band_pct = positive_number(section.at("band_pct"), where + "/band_pct", errors).value_or(35);
  const json points = section.value("points", json());
  if (!points.is_object() || points.empty()) {
    errors.add(where + "/points",
               shown(points) + " is not an object of grid points (expected {\"POINT\": {\"name\", \"tps\"}})");
    return std::nullopt;
  }
  for (const auto& [point, figures] : points.items()) {
    const std::string at = where + "/points/" + point;
    if (std::find(point_names.begin(), point_names.end(), point) == point_names.end()) {
      errors.add(at, "is not a point of this scenario's grid");
      continue;
    }
    if (!figures.is_object()) {
      errors.add(at, shown(figures) + " is not an object (expected {\"name\", \"tps\", \"pct_below_10\"})");
      continue;
    }
    PublishedPoint p{.point = point,
                     .name = text(figures, "name", at, errors, true).value_or(""),
                     .tps = 0,
                     .pct_below_10 = std::nullopt};
    if (!figures.contains("tps")) {
      errors.add(at + "/tps", "is missing (expected the published mean tps)");
    } else {
      p.tps = positive_number(figures.at("tps"), at + "/tps", errors).value_or(0);
    }
    if (figures.contains("pct_below_10"))
      p.pct_below_10 = positive_number(figures.at("pct_below_10"), at + "/pct_below_10", errors);
    out.points.push_back(std::move(p));
  }
  if (errors.size() != before) return std::nullopt;
  return out;
}

}  // namespace ckptsim::scenarios
