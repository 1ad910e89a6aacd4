// cli/folder/summary_stability.h
//
// summary.json's "stability" object (cli/report/run_summary.h writes it),
// and back: what a grid resume reads from a kept point's folder and what the
// grid's reports read from every point's. Doubles round-trip exactly.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/stability.h"

namespace ckptsim::cli {

nlohmann::ordered_json stability_json(const analysis::Stability& s);
analysis::Stability stability_from_json(const nlohmann::json& j);

}  // namespace ckptsim::cli
