// scenarios/bundle_axis.h
//
// A named grid axis of setting bundles: one axis whose values each set
// several settings at once, as a published test type sets several pgbench
// options together (E1's "1 client", "-j 2 -c 4", "-j 2 -c 4 -R 400 -L 100"),
// which no axis over one setting can carry without a cross product of
// combinations that were never run:
//
//   "grid": {"test": {"c1":   {"pgbench.clients": 1, "pgbench.threads": 1},
//                     "j2c4": {"pgbench.clients": 4, "pgbench.threads": 2}},
//            "postgres.checkpoint_sorting": [false, true]}
//
// The axis is a grid key without a section (no dot: "test", "variant") whose
// value is an object of bundles by name, in the order written; each bundle
// is an object of setting paths and values, laid as a grid value is. A point
// is named by the bundle ("test=j2c4,checkpoint_sorting=true") and summary.csv
// has the bundle's name in the axis's column. A bundle may be empty ({}: the
// scenario's own settings). Refused, naming the path: pasted text in a bundle
// (postgres.conf, pgbench.command: they would lay a whole command line,
// -T included, over --set), and a path that another axis also varies.
#pragma once

#include <string>
#include <vector>

#include "scenarios/schema.h"
#include "scenarios/settings.h"

namespace ckptsim::scenarios {

struct BundleSetting {
  std::string path, section, key;  // "pgbench.clients", "pgbench", "clients"
  json value;
  std::string where;  // "/grid/test/j2c4/pgbench.clients"
};

struct Bundle {
  std::string name;
  std::vector<BundleSetting> settings;
};

// Whether a grid key can name a bundle axis (its value an object) rather than a setting path.
bool is_bundle_axis(const std::string& key);

// The bundles of axis `axis` (its grid value `bundles`); errors name
// /grid/AXIS/NAME/PATH. Empty when the axis is unusable (errors say why).
std::vector<Bundle> read_bundle_axis(const std::string& axis, const json& bundles, const Schemas& schemas,
                                     Errors& errors);

}  // namespace ckptsim::scenarios
