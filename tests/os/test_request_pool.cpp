// tests/os/test_request_pool.cpp
//
// The request pool on its own (get_request_wait): FIFO hand-off of the freed
// request to the first sleeper, the legacy sync / async split, congestion.
#include <doctest/doctest.h>

#include "models/os/request_pool.h"
#include "sim/process.h"

using namespace ckptsim;
using namespace ckptsim::os;

namespace {

struct NoOwner final : disk::CommandOwner {
  void command_completed(disk::Command&) override {}
};

}  // namespace

TEST_CASE("request pool: a freed request goes to the first sleeper, and a newcomer in the same instant gets none") {
  sim::Simulator sim;
  NoOwner owner;
  RequestPool pool(sim, /*legacy=*/true, /*nr_requests=*/2, owner);
  Request* a = pool.alloc(false);
  Request* b = pool.alloc(false);
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  CHECK(pool.alloc(false) == nullptr);  // async pool full
  CHECK(pool.congested(false));
  CHECK_FALSE(pool.congested(true));

  Request* granted = nullptr;
  sim.spawn([](RequestPool& p, Request*& out) -> sim::Process { out = &co_await p.get(false); }(pool, granted));
  sim.run();
  CHECK(pool.waiting(false) == 1);

  pool.put(*a);
  CHECK(pool.alloc(false) == nullptr);  // the slot is the sleeper's already
  Request* sync = pool.alloc(true);     // the sync pool is separate
  CHECK(sync != nullptr);
  sim.run();
  CHECK(granted == a);
  CHECK(pool.waiting(false) == 0);
  CHECK(pool.allocated(false) == 2);
  CHECK(pool.allocated(true) == 1);

  pool.put(*b);  // nobody waits: back to the pool
  CHECK(pool.allocated(false) == 1);
  CHECK(pool.alloc(false) == b);
}
