// scenarios/limits.h
//
// Checks that a setting's own range cannot make, because the limit is the
// kernel's or the hardware's and spans settings: the database and its WAL
// must fit on their devices, an HDD's seek figures must be ordered, and the
// block-queue and dirty-memory sysctls must be values the kernel accepts.
// Each error names where the blamed value came from, the value and what was
// expected.
#pragma once

#include "scenarios/layers.h"
#include "scenarios/scenario.h"

namespace ckptsim::scenarios {

// The devices' own figures (seek_single <= seek_average <= seek_full).
void check_device_figures(const Layers& layers, const Scenario& s, Errors& errors);
// pgbench -i's tables and indexes at pgbench.scale, plus the WAL PostgreSQL
// keeps (max_wal_size, or the checkpoint_segments formula before 9.5), on
// the data device (and the WAL on hardware.wal_device when it has one).
void check_database_fits(const Layers& layers, const Scenario& s, Errors& errors);
// nr_requests at least BLKDEV_MIN_RQ, vm.dirty_bytes 0 or at least two pages.
void check_os_limits(const Layers& layers, const Scenario& s, Errors& errors);

}  // namespace ckptsim::scenarios
