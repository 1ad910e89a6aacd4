// cli/run/warmup_group.h
//
// Shared warmups. Points of a grid that differ only in PostgreSQL settings a
// reload applies (pg_settings.context sighup, superuser or user: the
// checkpoint, bgwriter, *_flush_after, WAL writer and commit settings;
// scenarios/chain.cpp lists them; fsync, PGC_SIGHUP in guc.c, is not among
// them since ckptsim's server reads it at start only) or only in the
// measured pgbench run build
// the same host and run the same warmup: during the warmup such a grid value
// keeps the scenario's own setting, and reaches the server after it by a
// reload (GridPoint::host(), run_point.h's measure_on_host), as a DBA who
// changes postgresql.conf between runs brings it.
//
// So a group's warmup runs once, in a process of its own (forked_grid.h),
// and each of its points continues in a copy of that process (fork(2)): an
// exact copy of the state the warmup reached. A point run alone (its own
// warmup, --point, a shard) takes the same steps on a host of its own and
// writes the same bytes.
//
// A group is the points whose host settings and warmup are equal: the
// host's resolved settings with the pgbench section cut to what the host
// reads before the measured run (the scale pgbench -i built, the progress
// period the warmup advances by) and the warmup section, the seed included
// (a repeat has its own, so its own warmup).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

struct WarmupGroup {
  std::vector<std::size_t> points;  // indices into plan.points, in running order
};

// A plan's groups, in the order of their first points. A chained grid's
// points share one host anyway (run_chain.h): each is a group of its own here.
std::vector<WarmupGroup> warmup_groups(const scenarios::Plan& plan);

// For run.json: the first point of point i's group when the group has
// others, else "" (the point warms up alone).
std::vector<std::string> warmup_shared_with(const scenarios::Plan& plan);

}  // namespace ckptsim::cli
