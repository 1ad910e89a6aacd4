#include "cli/commands/scenario_file.h"

#include <iostream>

#include "cli/folder/printable.h"

namespace ckptsim::cli {

std::filesystem::path default_scenario() { return scenarios::project_home() / "scenarios" / "default.json"; }

std::optional<scenarios::Plan> load_scenario(const std::string& file, const scenarios::LoadOptions& options) {
  try {
    scenarios::Plan plan =
        scenarios::load_plan(file.empty() ? default_scenario() : std::filesystem::path(file), options);
    for (const std::string& warning : plan.warnings) std::cerr << "warning: " << printable(warning) << '\n';
    return plan;
  } catch (const scenarios::ScenarioError& e) {
    for (const auto& message : e.messages) std::cerr << "error: " << printable(message) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
  }
  return std::nullopt;
}

std::string source_name(const std::string& file) {
  return (file.empty() ? default_scenario() : std::filesystem::path(file)).stem().string();
}

}  // namespace ckptsim::cli
