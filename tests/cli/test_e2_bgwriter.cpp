// E2, background writer strength (scenarios/e2-bgwriter.json and
// bgwriter-sweep.json), shortened: scale 1000 with 128MB of shared buffers,
// so that nearly every buffer allocation evicts, for 20-30 s, in which a
// checkpoint starts at about 5 s and is still in its fsync phase at the end.
#include <doctest/doctest.h>

#include <map>

#include "tests/cli/experiment_runs.h"

using namespace ckptsim::testing;

namespace {

struct Bgwriter {
  double clean = 0, maxwritten = 0, backend = 0;  // per transaction
  double maxwritten_rounds = 0;
};

Bgwriter bgwriter_of(const std::filesystem::path& point) {
  const auto s = summary_of(point);
  const auto& b = s["pg_stat_bgwriter"];
  const double tx = s["pgbench"]["transactions"].get<double>();
  REQUIRE(tx > 0);
  return {b["buffers_clean"].get<double>() / tx, b["maxwritten_clean"].get<double>() / tx,
          b["buffers_backend"].get<double>() / tx, b["maxwritten_clean"].get<double>()};
}

}  // namespace

TEST_CASE(
    "E2: 9.2's own bgwriter cleans through the checkpoint's fsync; lru_maxpages 0 and 50 clean nothing and less") {
  // The shipped file's variants (its bundle axis), at one scale and client count, without repeats.
  TempDir tmp("e2-bgwriter");
  auto doc =
      nlohmann::ordered_json::parse(slurp(std::filesystem::path(CKPTSIM_SOURCE_DIR) / "scenarios/e2-bgwriter.json"));
  doc.erase("repeat");
  doc["grid"]["pgbench.scale"] = {1000};
  doc["grid"]["pgbench.clients"] = {16};
  write_text(tmp / "e2.json", doc.dump());
  const auto r = run_ckptsim("run " + quoted(tmp / "e2.json") + " --out " + quoted(tmp / "out") +
                                 " --quiet --set pgbench.duration=30s --set postgres.shared_buffers=128MB",
                             tmp);
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  std::map<std::string, Bgwriter> v;
  for (const char* variant : {"9.0", "9.1", "9.2", "9.2-lru0", "9.2-lru50"})
    v[variant] = bgwriter_of(tmp / "out" / (std::string("variant=") + variant + ",scale=1000,clients=16"));
  CAPTURE(v["9.0"].clean);
  CAPTURE(v["9.1"].clean);
  CAPTURE(v["9.2"].clean);
  // Up to 9.1 one process cleans and checkpoints: while it is in the fsync phase nothing cleans.
  CHECK(v["9.2"].clean > 2 * v["9.1"].clean);
  CHECK(v["9.0"].clean == doctest::Approx(v["9.1"].clean).epsilon(0.2));
  CHECK(v["9.1"].backend > v["9.2"].backend);
  // Off: no cleaning, no round stopped by the limit; the backends write what it would have.
  CHECK(v["9.2-lru0"].clean == 0);
  CHECK(v["9.2-lru0"].maxwritten == 0);
  CHECK(v["9.2-lru0"].backend > v["9.2"].backend);
  // Half strength: less cleaned, more rounds stopped by the limit.
  CHECK(v["9.2-lru50"].clean < v["9.2"].clean);
  CHECK(v["9.2-lru50"].clean > 0);
  CHECK(v["9.2-lru50"].maxwritten_rounds > v["9.2"].maxwritten_rounds);
}

TEST_CASE("bgwriter sweep: cleaning rises with bgwriter_lru_maxpages, backend writes and maxwritten_clean fall") {
  TempDir tmp("bgwriter-sweep");
  const auto out =
      run_shipped("bgwriter-sweep.json", "--set pgbench.duration=20s --set postgres.shared_buffers=128MB", tmp);
  const std::vector<int> limits{0, 25, 50, 100, 200, 400, 1000};
  std::vector<Bgwriter> p;
  for (const int limit : limits) p.push_back(bgwriter_of(out / ("bgwriter_lru_maxpages=" + std::to_string(limit))));
  CHECK(p[0].clean == 0);
  CHECK(p[0].maxwritten_rounds == 0);
  for (std::size_t i = 1; i < p.size(); ++i) {
    CAPTURE(limits[i]);
    CHECK(p[i].clean > p[i - 1].clean);
    CHECK(p[i].backend < p[i - 1].backend);
    if (i >= 2) CHECK(p[i].maxwritten_rounds <= p[i - 1].maxwritten_rounds);  // from 25 up: fewer rounds hit the limit
  }
  CHECK(p.back().maxwritten_rounds < p[1].maxwritten_rounds / 2);
}
