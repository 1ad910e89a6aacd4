// scenarios/same_layer.h
//
// One setting given twice in one layer. Layers stack (a later layer wins),
// but within one layer there is no "later": a JSON object's keys have no
// order, and pasted text beside JSON keys is two ways of saying one thing.
// So a key set both by a section's pasted text (postgres.conf, os.sysctl,
// pgbench.command) and by a JSON key of the same object is an error naming
// both, and so is a pair of dirty-memory sysctls the kernel would not keep
// together (vm.dirty_ratio with a vm.dirty_bytes that is not 0) in one object
// or one grid.
//
// Between layers, and between lines of pasted sysctl text, the kernel's own
// rule applies instead: writing vm.dirty_ratio zeroes vm.dirty_bytes
// (dirty_ratio_handler, mm/page-writeback.c), and likewise for the background
// pair; vm.dirty_*_bytes, when not 0, rules over its ratio in the model
// (domain_dirty_limits), as writing it zeroes the ratio in the kernel.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scenarios/paste.h"
#include "scenarios/schema.h"

namespace ckptsim::scenarios {

// The bytes sysctl that writing `key` (an os ratio sysctl) zeroes, if any.
std::optional<std::string> bytes_zeroed_by(const std::string& key);

// One value written into a section, and where.
struct Written {
  std::string key;
  json value;
  std::string where;
  bool pasted = false;
};

// The settings one object of `section` writes: its JSON keys (less the paste
// key) and its pasted text's settings (cleared keys left out). Reports keys
// written both ways, and in the os section, a ratio beside a non-zero bytes
// sysctl of its pair unless both come from the pasted text.
void check_one_layer(const std::string& section, const std::vector<Written>& written, Errors& errors);

// A grid over both members of a dirty pair, with a non-zero bytes value.
// `axes` are the grid's setting paths ("os.vm.dirty_ratio") and values.
void check_grid_pairs(const std::vector<std::pair<std::string, std::vector<json>>>& axes, Errors& errors);

}  // namespace ckptsim::scenarios
