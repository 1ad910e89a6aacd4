// cli/host/memory_estimate.h
//
// How much of this machine's memory a run will take, known before it starts,
// so that a run that cannot fit is refused with the figures rather than
// killed by the OOM killer an hour in.
//
// The simulator's memory follows three things (measured with perf.json's
// peak_memory_mb, `ckptsim run` on default.json varying one at a time):
// - a fixed part (the engine, the device and kernel objects, the CSV rows);
// - per shared buffer, its header, its clock-sweep and checkpoint state, and
//   the buffer mapping entry: about 96 bytes;
// - per block of the pgbench tables and indexes (the scale's, not the page
//   cache's: each relation's per-block state is dense): about 37 bytes.
// Clients, duration and RAM of the simulated host barely matter (256 clients
// or a 1-hour run add under 1 MB). A grid needs the largest --jobs points at once.
//
// Left out: the simulated page cache's own size (bounded by the blocks above).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct MemoryEstimate {
  double fixed_mb = 0;
  double shared_buffers_mb = 0;
  double tables_mb = 0;
  double total_mb() const { return fixed_mb + shared_buffers_mb + tables_mb; }
};

MemoryEstimate estimate_memory(const scenarios::Scenario& scenario);

// MemAvailable from /proc/meminfo (or physical memory where that is missing), in MB.
double host_available_mb();

// Why the plan cannot run on this host with `jobs` points at once, or nullopt if it fits.
std::optional<std::string> memory_refusal(const scenarios::Plan& plan, int jobs, double available_mb);

}  // namespace ckptsim::cli
