// tests/postgres/harness.h
//
// A server over the recording file system, and small load processes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/postgres/server.h"
#include "recording_file_system.h"
#include "sim/random.h"

namespace ckptsim::postgres {

// Sets descriptor fields directly, to build a state that a run would reach only slowly.
struct BufferPoolTesting {
  static BufferDesc& desc(BufferPool& pool, BufferId id) { return pool.mutable_desc(id); }
  static BufferState& state(BufferPool& pool, BufferId id) { return pool.mutable_state(id); }
  static BufferDurability& durability(BufferPool& pool, BufferId id) { return pool.mutable_durability(id); }
};

}  // namespace ckptsim::postgres

namespace ckptsim::postgres::testing {

struct Rig {
  explicit Rig(PostgresConfig cfg) : cpus(sim, 4), fs(sim), config(std::move(cfg)) {}
  Server& make() {
    server = std::make_unique<Server>(sim, cpus, fs, config, 1);
    server->set_log_sink([this](std::string_view line) { log.emplace_back(line); });
    return *server;
  }
  sim::Simulator sim;
  sim::Resource cpus;
  RecordingFileSystem fs;
  PostgresConfig config;
  std::unique_ptr<Server> server;
  std::vector<std::string> log;
};

inline PostgresConfig config_for(const std::string& version) {
  PostgresConfig c;
  c.version = version;
  const Version v(version);
  if (!v.at_least(90600)) {
    c.checkpoint_sorting = false;
    c.checkpoint_flush_after = c.bgwriter_flush_after = 0;
  }
  if (!v.at_least(140000)) c.checkpoint_completion_target = 0.5;
  c.shared_buffers = 1 * sim::kMiB;  // 128 buffers
  return c;
}

// Modifies `blocks` in order, then (optionally) commits.
inline sim::Process modify_blocks(Backend& b, RelationId rel, std::vector<std::int64_t> blocks, int record_bytes,
                                  bool commit) {
  for (const std::int64_t block : blocks) co_await b.modify(rel, block, record_bytes);
  if (commit) co_await b.commit();
}

// A steady load: every `period`, modify one uniformly random block and commit, until `until`.
inline sim::Process steady_updates(sim::Simulator& sim, Backend& b, RelationId rel, std::int64_t nblocks,
                                   sim::Duration period, int record_bytes, sim::Time until, std::uint64_t seed) {
  sim::Random rng(seed, "steady_updates");
  while (sim.now() < until) {
    co_await b.modify(rel, rng.uniform_int(0, nblocks - 1), record_bytes);
    co_await b.commit();
    co_await sim.sleep(period);
  }
}

}  // namespace ckptsim::postgres::testing
