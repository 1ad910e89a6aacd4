// cli/report/crash_report.h
//
// crash.json: what `ckptsim run --crash-at TIME` found when it cut the power
// at TIME of the measured run (the clock of progress.csv), and how long crash
// recovery would take on the scenario's devices.
//
// The recovery estimate is models/postgres/crash.h's (estimate_recovery), with
// the WAL device's sequential rate and the data device's random 8 kB read
// from their settings (models/disk/read_cost.h).
#pragma once

#include <filesystem>

#include "cli/host/machine.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

void write_crash_report(const std::filesystem::path& dir, const scenarios::Scenario& scenario, const Machine& m,
                        double crash_at_s);

}  // namespace ckptsim::cli
