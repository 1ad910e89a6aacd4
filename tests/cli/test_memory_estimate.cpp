// A run that cannot fit in this machine's memory is refused up front, with
// the estimate and where it goes (cli/host/memory_estimate.h).
#include <doctest/doctest.h>

#include "cli/host/memory_estimate.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
using ckptsim::cli::estimate_memory;
using ckptsim::cli::memory_refusal;

namespace {

ckptsim::scenarios::Plan plan_of(const TempDir& tmp, const std::string& json) {
  write_text(tmp / "s.json", json);
  return ckptsim::scenarios::load_plan(tmp / "s.json", {});
}

}  // namespace

TEST_CASE("the estimate grows with shared_buffers and with the scale, by their per-page costs") {
  TempDir tmp("memory-estimate");
  const auto small = plan_of(tmp, R"({"postgres": {"shared_buffers": "1GB"}, "pgbench": {"scale": 100}})");
  const auto more_buffers = plan_of(tmp, R"({"postgres": {"shared_buffers": "2GB"}, "pgbench": {"scale": 100}})");
  const auto larger = plan_of(tmp, R"({"postgres": {"shared_buffers": "1GB"}, "pgbench": {"scale": 1000}})");
  const auto a = estimate_memory(small.points[0].scenario), b = estimate_memory(more_buffers.points[0].scenario),
             c = estimate_memory(larger.points[0].scenario);
  CHECK(b.shared_buffers_mb == doctest::Approx(2 * a.shared_buffers_mb));
  CHECK(b.tables_mb == a.tables_mb);
  CHECK(c.tables_mb == doctest::Approx(10 * a.tables_mb).epsilon(0.02));
  CHECK(a.shared_buffers_mb == doctest::Approx(96.0 * 131072 / (1 << 20)));
  CHECK(a.total_mb() == doctest::Approx(a.fixed_mb + a.shared_buffers_mb + a.tables_mb));
}

TEST_CASE("a grid is refused when the points that run at once exceed the memory available") {
  TempDir tmp("memory-refusal");
  const auto grid = plan_of(tmp, R"({"pgbench": {"scale": 1000},
                                     "grid": {"pgbench.clients": [1, 2, 4, 8]}})");
  const double one = estimate_memory(grid.points[0].scenario).total_mb();
  CHECK_FALSE(memory_refusal(grid, 4, 4 * one + 1));
  CHECK_FALSE(memory_refusal(grid, 2, 2 * one + 1));  // --jobs 2: only two at once
  const auto refusal = memory_refusal(grid, 4, 3 * one);
  REQUIRE(refusal);
  CHECK(refusal->find("4 points at once") != std::string::npos);
  CHECK(refusal->find("a smaller --jobs") != std::string::npos);
  const auto single = memory_refusal(grid, 1, one / 2);
  REQUIRE(single);
  CHECK(single->find("1 point at once") != std::string::npos);
}

TEST_CASE("ckptsim run refuses, exit 2 and nothing written, a grid that this machine cannot hold") {
  TempDir tmp("memory-run");
  // 16 points of scale 100000 (about 7 GB each) at once: more than any host the project runs on.
  // Its 1.4 TB database needs a device larger than the default 1 TB (scenarios/limits.h).
  write_text(tmp / "g.json", R"({"pgbench": {"scale": 100000, "duration": "10s"}, "device": {"capacity": "2TB"},
    "grid": {"pgbench.clients": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}})");
  const auto r = run_ckptsim("run " + (tmp / "g.json").string() + " --jobs 16 --out " + (tmp / "out").string(), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: this run needs about") != std::string::npos);
  CHECK(r.err.find("16 points at once") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "out"));
}

TEST_CASE("ulimit -v lowers the memory a run may take: a scale-100000 run under 4 GB of address space is refused") {
  TempDir tmp("memory-ulimit");
  write_text(tmp / "s.json", R"({"pgbench": {"scale": 100000, "duration": "10s"}, "device": {"capacity": "2TB"}})");
  // About 7 GB for the tables alone: std::bad_alloc partway before; refused up front now, with the figure.
  const auto r = run_ckptsim("run " + quoted(tmp / "s.json") + " --out " + quoted(tmp / "out"), tmp,
                             "ulimit -v 4000000;");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("error: this run needs about") != std::string::npos);
  CHECK(r.err.find("ulimit -v") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp / "out"));
}
