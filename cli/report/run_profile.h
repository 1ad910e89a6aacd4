// cli/report/run_profile.h
//
// `run --profile`: the components a run's events and wall time are charged
// to (sim/profile.h), by the namespace and class of the code an event runs:
// pgbench (models/pgbench), postgres (models/postgres), the kernel and the
// block layer (models/os: the request queue, elevators, md and bios are the
// block layer, the rest the kernel), the device (models/disk), and the
// engine for everything else: the event queue, the samplers that write the
// CSV rows, and the loop that runs them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/profile.h"

namespace ckptsim::cli {

sim::Profile make_run_profile();

// perf.json's "profile": per component, events and share of the run's wall time.
nlohmann::ordered_json profile_json(const sim::Profile& profile, double wall_seconds);
// The same as a table for the terminal.
std::string profile_table(const sim::Profile& profile, double wall_seconds);

}  // namespace ckptsim::cli
