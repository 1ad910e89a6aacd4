// `ckptsim check`: a scenario validated and the resolved settings that apply
// to it printed (scenarios/applicable.h).
#include "cli/commands/commands.h"

#include <iostream>

#include <nlohmann/json.hpp>

#include "cli/commands/scenario_file.h"
#include "scenarios/applicable.h"

namespace ckptsim::cli {

int command_check(const CheckArgs& args) {
  const auto plan = load_scenario(args.scenario, {.sets = args.sets,
                                                  .preset_files = {args.preset_files.begin(), args.preset_files.end()},
                                                  .seed = std::nullopt,
                                                  .max_points = args.max_points});
  if (!plan) return 2;
  if (!plan->is_grid()) {
    std::cout << scenarios::applicable_settings(plan->points.front().scenario).dump(2) << '\n';
    return 0;
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& point : plan->points)
    points.push_back({{"point", point.name}, {"settings", scenarios::applicable_settings(point.scenario)}});
  nlohmann::ordered_json shown{{"grid", plan->grid_paths}};
  if (plan->chained) shown["chain"] = true;  // the points below are in the chain's order
  shown["points"] = points;
  std::cout << shown.dump(2) << '\n';
  return 0;
}

}  // namespace ckptsim::cli
