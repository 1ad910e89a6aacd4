// tests/disk/test_bbwc_extents.cpp
//
// The controller cache's dirty extents on their own: merging of adjacent
// writes and rewrites, the room check, data being destaged kept apart, and
// C-LOOK order from the end of the last destage.
#include <doctest/doctest.h>

#include "models/disk/bbwc_extents.h"
#include "tests/disk/owners.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {
Command write(std::int64_t sector, std::int64_t bytes) { return testing::write_command(sector, bytes); }
}  // namespace

TEST_CASE("bbwc extents: adjacent writes merge, a rewrite takes no room, a write being destaged stays apart") {
  BbwcExtents cache(1024 * 1024);
  using A = BbwcExtents::Admitted;
  CHECK(cache.admit(write(0, 8192)) == A::NewExtent);
  CHECK(cache.admit(write(16, 8192)) == A::NewExtent);  // adjacent: one extent of 16 kB
  CHECK(cache.count() == 1);
  CHECK(cache.dirty_bytes() == 16384);
  CHECK(cache.admit(write(0, 8192)) == A::NewExtent);  // a rewrite: same extent, no new bytes
  CHECK(cache.count() == 1);
  CHECK(cache.dirty_bytes() == 16384);
  CHECK(cache.admit(write(100000, 1024 * 1024)) == A::NoRoom);  // 16 kB + 1 MiB > 1 MiB
  CHECK(cache.fresh() == 1);

  BbwcExtents::Extent* first = cache.next_for_destage(true);
  REQUIRE(first != nullptr);
  CHECK(first->sector == 0);
  cache.destage_started(*first);
  CHECK(cache.fresh() == 0);
  CHECK(cache.admit(write(32, 8192)) == A::NewExtent);  // touches the extent in flight: kept apart
  CHECK(cache.count() == 2);
  CHECK(cache.next_for_destage(false) == nullptr);  // the new one is fresh until the next periodic flush
  cache.new_epoch();
  BbwcExtents::Extent* second = cache.next_for_destage(false);
  REQUIRE(second != nullptr);
  CHECK(second->sector == 32);
  cache.destage_done(*first);
  CHECK(cache.count() == 1);
  CHECK(cache.dirty_bytes() == 8192);
}
