// cli/commands/scenario_file.h
//
// The scenario file that `run` and `check` read: the shipped default when
// none is named, loaded with every error the loader found printed.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

std::filesystem::path default_scenario();

// Loads a plan, printing every error the loader found; nullopt means exit 2.
std::optional<scenarios::Plan> load_scenario(const std::string& file, const scenarios::LoadOptions& options);

// The scenario's name for titles: its file's stem.
std::string source_name(const std::string& file);

}  // namespace ckptsim::cli
