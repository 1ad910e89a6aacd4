// scenarios/published.h
//
// A scenario that reproduces a published experiment carries the published
// figures in its "published" section, so that `run` can say in one line how
// close it came (cli/run/published_verdict.h):
//
//   "published": {"label": "E1 small -j 2 -c 4", "source": "...", "band_pct": 35,
//                 "points": {"checkpoint_sorting=true,checkpoint_flush_after=256kB":
//                              {"name": "sort+flush", "tps": 757, "pct_below_10": 0.1}, ...}}
//
// The points are named as the grid names them (point_name); each must be a
// point of the scenario's grid, or the scenario's only point ("") without one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/schema.h"

namespace ckptsim::scenarios {

struct PublishedPoint {
  std::string point;                   // the grid point's name
  std::string name;                    // as the publication calls it: "sort+flush", "off/off"
  double tps = 0;                      // the published mean tps
  std::optional<double> pct_below_10;  // the published share of seconds below 10 tps
};

struct Published {
  std::string label;     // "E1 small -j 2 -c 4"
  std::string source;    // where the figures come from
  double band_pct = 35;  // within this many percent of the published tps counts as matching
  std::vector<PublishedPoint> points;
};

// Reads doc["published"] (at /published); errors name the JSON path, the
// value and what was expected. `point_names` are the plan's points.
std::optional<Published> read_published(const json& doc, const std::vector<std::string>& point_names, Errors& errors);

}  // namespace ckptsim::scenarios
