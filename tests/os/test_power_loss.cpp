// What a power loss would take: blocks dirty or in flight in the page cache,
// and blocks that a device holds in its volatile cache (Kernel::unstable_blocks).
#include <doctest/doctest.h>

#include "kernel_harness.h"

using namespace ckptsim;
using namespace ckptsim::os;
using namespace ckptsim::os::testing;

namespace {
const Memory kSmall{1 * sim::kGiB, 0};
using Blocks = std::vector<std::int64_t>;
}  // namespace

TEST_CASE("a written block is unstable until an fsync; past it too when nobarrier leaves it in the drive's cache") {
  for (const bool barrier : {true, false}) {
    CAPTURE(barrier);
    OsConfig c = profile("linux-3.2");
    c.barrier = barrier;
    Machine m(c, kSmall, sata_disk_with_cache());
    OsTask& t = m.kernel.new_task("backend");
    const FileId f = m.kernel.create("rel", Volume::Data, 100, 100);
    CHECK(m.kernel.unstable_blocks(f, 0, 100).empty());  // as pgbench -i left it: on the platters

    m.run([&]() -> sim::Task<> { co_await m.kernel.write(t, f, 3, 2); });
    CHECK(m.kernel.unstable_blocks(f, 0, 100) == Blocks{3, 4});  // dirty in the page cache
    CHECK(m.kernel.unstable_blocks(f, 4, 100) == Blocks{4});

    m.run([&]() -> sim::Task<> { co_await m.kernel.fsync(t, f); });
    CHECK(m.kernel.fsync_is_durable(f) == barrier);
    // With barriers, the fsync ended with a cache flush; without, the drive still holds the writes.
    CHECK(m.kernel.unstable_blocks(f, 0, 100) == (barrier ? Blocks{} : Blocks{3, 4}));
  }
}

TEST_CASE("a device without a volatile cache keeps what it acknowledged, flush or not") {
  OsConfig c = profile("linux-3.2");
  c.barrier = false;
  Machine m(c, kSmall, FakeDeviceConfig{.queue_depth = 4, .volatile_cache = false});
  OsTask& t = m.kernel.new_task("backend");
  const FileId f = m.kernel.create("rel", Volume::Data, 100, 100);
  m.run([&]() -> sim::Task<> {
    co_await m.kernel.write(t, f, 7);
    co_await m.kernel.fdatasync(t, f);
  });
  CHECK(m.kernel.fsync_is_durable(f));
  CHECK(m.kernel.unstable_blocks(f, 0, 100).empty());
}
