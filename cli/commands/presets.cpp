// `ckptsim presets`: the shipped presets, one line each.
#include "cli/commands/commands.h"

#include <iostream>

#include <fmt/format.h>

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

}  // namespace ckptsim::cli
