// scenarios/suggest.h
//
// "Did you mean ...?" for a misspelt setting, section or grid path: the
// known name nearest by edit distance (Levenshtein, ignoring case), offered
// only when it is close enough to be a plausible typo.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ckptsim::scenarios {

std::optional<std::string> nearest_name(const std::string& typed, const std::vector<std::string>& known);

}  // namespace ckptsim::scenarios
