// `ckptsim check`: a scenario validated and the resolved settings that apply
// to it printed (scenarios/applicable.h).

#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands/commands.h"
#include "cli/commands/options.h"
#include "cli/commands/scenario_file.h"
#include "scenarios/applicable.h"

namespace ckptsim::cli {

namespace {

struct CheckArgs {
  std::string scenario;
  std::vector<std::string> sets;
  std::vector<std::string> preset_files;
  std::uint64_t max_points = scenarios::kDefaultMaxPoints;
};

}  // namespace

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

Command add_check(CLI::App& app) {
  auto check = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "Validate a scenario and print its fully resolved settings");
  cmd->add_option("scenario", check->scenario, "Scenario JSON file")->required();
  cmd->add_option("--set", check->sets, "Override a setting, as for run");
  cmd->add_option("--preset-file", check->preset_files, "A preset file of your own, as for run")
      ->allow_extra_args(false);
  cmd->add_option("--max-points", check->max_points, "Largest grid accepted")
      ->check(unsigned_64())
      ->capture_default_str();
  return {cmd, [check] { return command_check(*check); }};
}

}  // namespace ckptsim::cli
