// scenarios/chain.h
//
// A chained grid: "chain": true in the "grid" object runs the grid's points
// one after another on ONE simulated host, each starting from the state the
// previous one left (shared buffers, page cache, dirty pages, WAL position,
// checkpoint schedule, table sizes), with one warmup before the first, as a
// test script that loops over settings without re-initialising does (E1's
// cp_test.sh: four pgbench runs after one warmup).
//
//   "grid": {"postgres.checkpoint_sorting": [true, false],
//            "postgres.checkpoint_flush_after": ["256kB", 0],
//            "chain": true,
//            "order": ["checkpoint_sorting=true,checkpoint_flush_after=256kB", 3, ...]}
//
// "order" (only with "chain": true) lists every point once, each by its name
// (point_name) or by its 0-based index in the grid's own order (the first
// key varying slowest); without it the chain runs in the grid's order.
//
// Between points the runner changes only what a DBA changes between runs
// without a restart: PostgreSQL settings whose context is sighup, superuser
// or user (applied by a reload, postgres::Server::reload) and the pgbench
// command line (each point is a new pgbench). An axis over anything else
// (shared_buffers, wal_buffers, the version, hardware, device, os, pgbench
// -i's scale, init, warmup) is refused: a restart or re-initialisation would
// not carry the state over.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "scenarios/schema.h"
#include "scenarios/units.h"

namespace ckptsim::scenarios {

struct ChainSpec {
  bool chained = false;
  json order;  // null: the grid's order
};

// The grid object's "chain" and "order" keys (the other keys are setting paths).
bool is_chain_key(const std::string& key);
ChainSpec read_chain(const json& grid, Errors& errors);

// Why `section.key` cannot vary along a chain, or "" when it can.
std::string chain_refusal(const std::string& section, const std::string& key);

// The points' running order (indices into `names`, the grid's order) from
// spec.order; errors name /grid/order/N, the value and the allowed names.
std::vector<std::size_t> chain_order(const ChainSpec& spec, const std::vector<std::string>& names, Errors& errors);

}  // namespace ckptsim::scenarios
