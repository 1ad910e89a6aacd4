// tests/postgres/test_reload.cpp
//
// Server::reload (pg_ctl reload): the settings a reload may change are taken,
// CheckPointSegments is recalculated as the assign hooks do, the ones that
// need a restart stay, and the postmaster logs the SIGHUP.
#include <doctest/doctest.h>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

TEST_CASE("a reload takes the sighup settings, recalculates CheckPointSegments and keeps shared_buffers") {
  PostgresConfig cfg = config_for("9.6");
  cfg.checkpoint_completion_target = 0.8;
  cfg.max_wal_size = 1 * sim::kGiB;
  Rig rig(cfg);
  Server& server = rig.make();
  server.start();
  REQUIRE(server.checkpointer().checkpoint_segments() == 22);  // 64 / 2.8

  PostgresConfig next = cfg;
  next.max_wal_size = 4 * sim::kGiB;
  next.checkpoint_sorting = false;
  next.checkpoint_flush_after = 0;
  next.checkpoint_timeout = 30 * sim::kSecond;
  next.shared_buffers = 2 * sim::kMiB;  // postmaster context: needs a restart
  server.reload(next);

  CHECK(server.checkpointer().checkpoint_segments() == 91);  // 256 / 2.8
  CHECK(server.config().checkpoint_sorting == false);
  CHECK(server.config().checkpoint_flush_after == 0);
  CHECK(server.config().checkpoint_timeout == 30 * sim::kSecond);
  CHECK(server.config().shared_buffers == 1 * sim::kMiB);
  CHECK(server.buffer_pool().size() == 128);
  REQUIRE(rig.log.size() == 1);
  CHECK(rig.log[0].ends_with("LOG:  received SIGHUP, reloading configuration files"));
}
