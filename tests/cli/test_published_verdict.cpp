// The line `run` prints after a scenario with published figures (cli/run/published_verdict.h).
#include <doctest/doctest.h>

#include "cli/run/published_verdict.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim;
using namespace ckptsim::testing;

TEST_CASE("the verdict says within the band, or how many times the published mean a point is") {
  scenarios::Published published{.label = "E1 small -c 4", .source = "", .band_pct = 35, .points = {}};
  published.points.push_back({.point = "a", .name = "sort+flush", .tps = 757, .pct_below_10 = 0.1});
  published.points.push_back({.point = "b", .name = "off/off", .tps = 199, .pct_below_10 = 82.5});
  published.points.push_back({.point = "c", .name = "not run", .tps = 100, .pct_below_10 = std::nullopt});
  analysis::Stability near, far;
  near.tps_mean = 684;  // -9.6%
  far.tps_mean = 639;   // 3.2x
  CHECK(cli::published_verdict(published, {"b", "a"}, {far, near}) ==
        "E1 small -c 4 against the published: sort+flush within 35% (684 vs 757 tps); off/off 3.2x the published "
        "(639 vs 199 tps)");
  near.tps_mean = 400;  // -47%: out of the band
  CHECK(cli::published_verdict(published, {"a"}, {near}) ==
        "E1 small -c 4 against the published: sort+flush 0.5x the published (400 vs 757 tps)");
  CHECK(cli::published_verdict(published, {"z"}, {near}).empty());
}

TEST_CASE("run prints the verdict after the grid's table, and says when --set changed the setup") {
  TempDir tmp("published-run");
  write_text(tmp / "p.json", R"({"hardware": {"ram": "2GB", "device": "nvme"}, "postgres": {"shared_buffers": "64MB"},
    "pgbench": {"scale": 2, "clients": 1, "duration": "3s"}, "warmup": {"duration": "0s"},
    "grid": {"postgres.fsync": [true]},
    "published": {"label": "test", "points": {"fsync=true": {"name": "fsync on", "tps": 1000000}}}})");
  const auto r = run_ckptsim("run " + quoted(tmp / "p.json") + " --out " + quoted(tmp / "out"), tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\ntest against the published: fsync on 0.0x the published (") != std::string::npos);
  const auto set =
      run_ckptsim("run " + quoted(tmp / "p.json") + " --out " + quoted(tmp / "out2") + " --set pgbench.clients=2", tmp);
  REQUIRE(set.exit_code == 0);
  CHECK(set.out.find("tps) (settings changed by --set or --preset-file: not the published setup)\n") !=
        std::string::npos);
}
