// cli/commands/grid_shares.h
//
// A grid spread over processes or machines (README, "Running a grid on many
// machines"), each share run by an existing engine (GNU parallel, a Slurm job
// array) and the point folders copied back into one grid folder for
// `ckptsim report`:
// - --shard I/K runs share I of K (numbered from 1): the points whose
//   0-based place in running order is I-1 modulo K, so shares never overlap,
//   cover every point and get as many points as each other, to one;
// - --point NAME runs that one point into --out, which must be GRID/NAME;
// - --list-points prints, per point, the command line that runs it alone
//   with --point and its own --out under the grid folder: shell-quoted words,
//   the ckptsim binary and the scenario file by their absolute paths.
// A share records the whole grid's grid.json first (cli/report/grid_report.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/commands/run.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct Share {
  std::size_t index = 1, of = 1;  // I, K
};

// "I/K"; nullopt after printing why not (exit code 2).
std::optional<Share> parse_share(const std::string& text);

// Which points share I of K holds.
std::vector<char> share_points(std::size_t points, const Share& share);

// `word` as one shell word.
std::string shell_quoted(const std::string& word);

// One line per point of `plan`, each a command that runs it alone into grid_dir/NAME.
std::string point_command_lines(const RunArgs& args, const scenarios::Plan& plan, const std::string& scenario_file,
                                const std::string& grid_dir);

}  // namespace ckptsim::cli
