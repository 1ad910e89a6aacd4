// cli/folder/stop.h
//
// Why a run ends before its end: SIGINT, SIGTERM or SIGHUP (Ctrl-C, kill, a
// closed terminal: SIGHUP is taken as SIGTERM), or the --max-wall budget. The
// request is a flag that the simulation loop reads at each progress
// interval's end, so a stopped run still commits every row it produced, and
// its folder says "complete": false. Before the measured run, the setup
// (creating the relation files, replaying pgbench -i, pg_prewarm) reads it
// once per 1 GB through sim/interrupt.h, so a stop lands there too within a
// fraction of a second. A second signal ends the process at once (the handler
// restores the default action), as a user who presses Ctrl-C twice expects.
//
// Left out: SIGQUIT keeps its default action (a core dump).
#pragma once

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>

namespace ckptsim::cli {

enum class StopReason { none, interrupt, terminate, hangup, max_wall };

// Installs the SIGINT, SIGTERM and SIGHUP handlers and the setup's interrupt
// poll (once per process).
void install_stop_handlers();

// The reason a stop was asked for, or none. Checks the --max-wall deadline too.
StopReason stop_requested();

// Sets the --max-wall deadline: that long from now, stop_requested() says max_wall.
void set_wall_budget(std::chrono::duration<double> budget);

// The process exit code for a run stopped for `reason`: 128 + signal number
// for SIGINT and SIGTERM (the shell's convention), 143 for SIGHUP too (it
// stops the run as SIGTERM does), 3 for --max-wall.
int stop_exit_code(StopReason reason);

// "interrupted (SIGINT)", "terminated (SIGTERM)", "hung up (SIGHUP)", "stopped by --max-wall".
std::string stop_description(StopReason reason);

class Stopped : public std::runtime_error {
 public:
  explicit Stopped(StopReason reason) : std::runtime_error(stop_description(reason)), reason_(reason) {}
  StopReason reason() const { return reason_; }

 private:
  StopReason reason_;
};

// Work after a run (writing the results index) stops at its next file when a
// signal arrives while it runs: throw_if_signalled() throws Stopped. A signal
// that came before, and stopped the run, was answered already: the index is
// still written, to show what the stopped run left.
class SignalWatch {
 public:
  SignalWatch();  // counts the signals from now
  void throw_if_signalled() const;

 private:
  int seen_;
};

}  // namespace ckptsim::cli
