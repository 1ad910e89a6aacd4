// `ckptsim presets`: the shipped presets, one line each.

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

int command_presets() {
  std::string kind;
  for (const auto& preset : scenarios::list_presets()) {
    if (preset.kind != kind) {
      kind = preset.kind;
      std::cout << kind << ":\n";
    }
    std::cout << fmt::format("  {:<22} {}\n", preset.name, preset.description);
  }
  return 0;
}

Command add_presets(CLI::App& app) {
  return {app.add_subcommand("presets", "List the shipped presets, one line each"), [] { return command_presets(); }};
}

}  // namespace ckptsim::cli
