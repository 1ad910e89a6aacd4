// sim/interrupt.h
//
// A way out of the long steps that run outside simulated time, before a run
// starts: creating a terabyte-sized database's segment files and replaying
// pgbench -i's I/O into the page cache take a minute of wall clock at scale
// 100000. Those loops call poll_interrupt() between 1 GB segments; it throws
// Interrupted when the poll that the runner installed (cli/folder/stop.h: SIGINT,
// SIGTERM, SIGHUP, --max-wall) says stop. Simulated time is not stopped here:
// the runner stops it between progress intervals, after committing their rows.
//
// The poll is process-wide, as signals are; without one, poll_interrupt()
// never throws, so tests and the models' results are unaffected.
#pragma once

#include <stdexcept>

namespace ckptsim::sim {

struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted before the run started") {}
};

using InterruptPoll = bool (*)();

// Installs `poll` (nullptr: none). Thread-safe.
void set_interrupt_poll(InterruptPoll poll);

// Throws Interrupted when the installed poll returns true.
void poll_interrupt();

}  // namespace ckptsim::sim
