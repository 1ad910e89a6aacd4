// scenarios/pgbench_arguments.h
//
// pgbench 15's checks of an option's argument, made where its main() makes
// them, inside the getopt_long loop (src/bin/pgbench/pgbench.c, REL_15):
// option_parse_int (src/fe_utils/option_utils.c) for the integer options,
// atof with a bound for -R -L --sampling-rate, atoi for --max-tries, the
// enumerations of -M and --partition-method, set_random_seed's three forms,
// checkInitSteps's letters and -D's NAME=VALUE. Each refusal is pgbench's
// own sentence, so a command that pgbench would reject is rejected here
// before anything runs.
//
// Left out: -c's open-files limit (getrlimit on pgbench's host), -b and -f's
// script lookups (paste_pgbench.cpp reads -b; -f is refused there).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ckptsim::scenarios {

// Why pgbench 15 refuses `argument` for the option named `long_name` (its
// long name, e.g. "client"), or nullopt when it takes it.
std::optional<std::string> pgbench_argument_problem(std::string_view long_name, const std::string& argument);

}  // namespace ckptsim::scenarios
