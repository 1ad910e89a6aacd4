// cli/run/published_verdict.h
//
// The one line `run` prints after a scenario that carries published figures
// (scenarios/published.h), from the run's own stability figures: for each
// published point, "within N% of published" when its mean tps is, else how
// many times the published mean it is:
//   "E1 small -j 2 -c 4 against the published: sort+flush within 35% (684 vs 757 tps); ...;
//    off/off 3.2x the published (639 vs 199 tps)"
// The README's "How faithful is it" quotes the same words.
#pragma once

#include <string>
#include <vector>

#include "analysis/stability.h"
#include "scenarios/published.h"

namespace ckptsim::cli {

// `stabilities[i]` is the figures of point `point_names[i]`; a published
// point the run did not measure is left out of the line.
std::string published_verdict(const scenarios::Published& published, const std::vector<std::string>& point_names,
                              const std::vector<analysis::Stability>& stabilities);

}  // namespace ckptsim::cli
