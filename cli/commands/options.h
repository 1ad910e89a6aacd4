// cli/commands/options.h
//
// Command-line values shared by several commands, validated with messages a
// user can read (CLI11's own ranges print the limits of double). A
// validator's name is what --help shows beside the option.
#pragma once

#include <CLI/CLI.hpp>

namespace ckptsim::cli {

const CLI::Validator& count_at_least_one();  // --jobs: 1..4096
const CLI::Validator& tps_threshold();       // --threshold: tps >= 0
const CLI::Validator& positive_seconds();    // --interval, --max-wall: seconds > 0
const CLI::Validator& unsigned_64();         // --seed (as the scenario's "seed"), --max-points: nothing wrapped
const CLI::Validator& folder_path();         // --out of run: not empty

}  // namespace ckptsim::cli
