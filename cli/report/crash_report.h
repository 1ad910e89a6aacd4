// cli/report/crash_report.h
//
// crash.json: what `ckptsim run --crash-at TIME` found when it cut the power
// at TIME of the measured run (the clock of progress.csv), and how long crash
// recovery would take on the scenario's devices.
//
// The recovery estimate is the startup process replaying the WAL from the
// redo point to the end of the durable WAL, one process and one read at a
// time (PostgreSQL 14 and earlier; 15's recovery_prefetch, which overlaps the
// reads, is left out, so on 15+ it is an upper bound):
// - reading the WAL, sequentially, at the WAL device's media (HDD) or link
//   (SSD) rate;
// - applying each record, an assumed CPU cost (crash.json names it);
// - one random read per page whose first change since the redo point carries
//   no full-page image: with full_page_writes on, none (the image replaces
//   the page); off, every such page, read at the data device's random-read
//   time (average seek, half a turn and the transfer; an SSD's read path).
// These add up: replay waits for each read. Left out: the end-of-recovery
// checkpoint and the page cache's help (a power loss empties it).
#pragma once

#include <filesystem>

#include "cli/host/machine.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

// The random 8 kB read and sequential read rate of a device, from its settings.
double random_read_seconds(const disk::DeviceConfig& device);
double sequential_read_bytes_per_second(const disk::DeviceConfig& device);

void write_crash_report(const std::filesystem::path& dir, const scenarios::Scenario& scenario, const Machine& m,
                        double crash_at_s);

}  // namespace ckptsim::cli
