// cli/stop.h
//
// Why a run ends before its end: SIGINT or SIGTERM (Ctrl-C, kill), or the
// --max-wall budget. The request is a flag that the simulation loop reads at
// each progress interval's end, so a stopped run still commits every row it
// produced, and its folder says "complete": false. A second signal ends the
// process at once (the handler restores the default action), as a user who
// presses Ctrl-C twice expects.
//
// Left out: SIGHUP and SIGQUIT keep their default actions.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace ckptsim::cli {

enum class StopReason { none, interrupt, terminate, max_wall };

// Installs the SIGINT and SIGTERM handlers (once per process).
void install_stop_handlers();

// The reason a stop was asked for, or none. Checks the --max-wall deadline too.
StopReason stop_requested();

// Sets the --max-wall deadline: that long from now, stop_requested() says max_wall.
void set_wall_budget(std::chrono::duration<double> budget);

// The process exit code for a run stopped for `reason`: 128 + signal number
// for a signal (the shell's convention), 3 for --max-wall.
int stop_exit_code(StopReason reason);

// "interrupted (SIGINT)", "terminated (SIGTERM)", "stopped by --max-wall".
std::string stop_description(StopReason reason);

}  // namespace ckptsim::cli
