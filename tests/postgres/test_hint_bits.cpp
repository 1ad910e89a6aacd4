// tests/postgres/test_hint_bits.cpp
//
// Hint bits (backend.h): MarkBufferDirtyHint dirties a clean buffer, and with
// data_checksums or wal_log_hints (XLogHintBitIsNeeded) first logs the page's
// image in an XLOG_FPI_FOR_HINT record if the page has not changed since the
// redo point (XLogSaveBufferForHint, xloginsert.c), whatever full_page_writes
// says (REGBUF_FORCE_IMAGE).
#include <doctest/doctest.h>

#include "harness.h"

using namespace ckptsim;
using namespace ckptsim::postgres;
using namespace ckptsim::postgres::testing;

namespace {

struct Case {
  const char* name;
  const char* version;
  bool data_checksums;
  bool wal_log_hints;
  bool full_page_writes;
  bool logged;  // hint images expected
};

sim::Process hint_then_update(Backend& b, RelationId rel) {
  for (std::int64_t block = 0; block < 4; ++block) co_await b.read(rel, block);  // clean in shared buffers
  co_await b.read(rel, 0, true);                                                 // first hint-only change of block 0
  co_await b.read(rel, 0, true);  // the buffer is dirty now: nothing more
  co_await b.read(rel, 1, true);
  co_await b.read(rel, 2, false);  // no unhinted tuples met: nothing
  co_await b.modify(rel, 0, 100);  // an UPDATE after the hint: its record carries no image if the hint's did
  co_await b.commit();
}

}  // namespace

TEST_CASE("a hint-only change logs the page's image once per checkpoint cycle only with checksums or wal_log_hints") {
  const Case cases[] = {
      {"17 as initdb leaves it", "17", false, false, true, false},
      {"17 with wal_log_hints", "17", false, true, true, true},
      {"18 as initdb leaves it (checksums)", "18", true, false, true, true},
      {"18 initdb --no-data-checksums", "18", false, false, true, false},
      {"18 with full_page_writes off: the hint image is forced", "18", true, false, false, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    PostgresConfig cfg = config_for(c.version);
    cfg.data_checksums = c.data_checksums;
    cfg.wal_log_hints = c.wal_log_hints;
    cfg.full_page_writes = c.full_page_writes;
    Rig rig(cfg);
    Server& server = rig.make();
    const RelationId rel = server.create_relation("t", 10);
    Backend& b = server.connect();
    server.start();
    rig.sim.spawn(hint_then_update(b, rel));
    rig.sim.run_until(50 * sim::kMillisecond);
    const Stats& s = server.stats();
    CHECK(s.hint_dirtied == 2);  // blocks 0 and 1, dirtied whether or not the hint is logged
    CHECK(s.wal_fpi_for_hint == (c.logged ? 2 : 0));
    // With logged hints the update of block 0 finds its LSN past the redo point; without, its
    // record carries the page's first image (when full_page_writes is on).
    CHECK(s.wal_fpi == (c.logged ? 2 : (c.full_page_writes ? 1 : 0)));
    // Records: the hint images, the update, the commit.
    CHECK(s.wal_records == (c.logged ? 4 : 2));
  }
}

TEST_CASE("after a checkpoint the next hint-only change of the page logs its image again") {
  PostgresConfig cfg = config_for("18");
  cfg.data_checksums = true;  // the 18 preset's initdb default
  Rig rig(cfg);
  Server& server = rig.make();
  const RelationId rel = server.create_relation("t", 10);
  Backend& b = server.connect();
  server.start();
  auto hint = [](Backend& backend, RelationId r) -> sim::Process { co_await backend.read(r, 3, true); };
  rig.sim.spawn(hint(b, rel));
  rig.sim.run_until(10 * sim::kMillisecond);
  REQUIRE(server.stats().wal_fpi_for_hint == 1);
  server.request_checkpoint(true);  // writes the hint-dirtied buffer and moves the redo point
  rig.sim.run_until(2 * sim::kSecond);
  REQUIRE(server.stats().checkpoints_done == 1);
  rig.sim.spawn(hint(b, rel));
  rig.sim.run_until(2100 * sim::kMillisecond);
  CHECK(server.stats().wal_fpi_for_hint == 2);
  CHECK(server.stats().hint_dirtied == 2);
}
