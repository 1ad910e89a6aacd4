// tests/sim/test_random.cpp
//
// Named random streams: reproducibility, independence of names, and the
// distributions' ranges and moments (bands sized in standard errors).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/random.h"

using namespace ckptsim::sim;

TEST_CASE("the same scenario seed and owner name give the same sequence") {
  Random a(42, "client.3");
  Random b(42, "client.3");
  for (int i = 0; i < 1000; ++i) REQUIRE(a.next() == b.next());
  CHECK(derive_seed(42, "client.3") == derive_seed(42, "client.3"));
}

TEST_CASE("different names or different scenario seeds give different streams") {
  CHECK(derive_seed(42, "client.3") != derive_seed(42, "client.4"));
  CHECK(derive_seed(42, "client.3") != derive_seed(43, "client.3"));
  CHECK(derive_seed(0, "") != derive_seed(0, "a"));
  Random a(42, "client.3");
  Random b(42, "client.4");
  int equal = 0;
  for (int i = 0; i < 1000; ++i) equal += a.next() == b.next() ? 1 : 0;
  CHECK(equal == 0);  // a 64-bit collision has probability ~1000 / 2^64
}

TEST_CASE("the generator is pinned: these values must never change between builds or platforms") {
  // The first two are the reference xoshiro256** outputs for a state filled
  // by splitmix64 from seed 0; the derived seed is this implementation's own.
  // A change here changes every published run: bump deliberately or not at all.
  Random r(0);
  const std::uint64_t first = r.next();
  const std::uint64_t second = r.next();
  Random again(0);
  CHECK(again.next() == first);
  CHECK(again.next() == second);
  CHECK(first == 0x99ec5f36cb75f2b4ULL);
  CHECK(second == 0xbf6e1f784956452aULL);
  CHECK(derive_seed(1, "checkpointer") == 0xf91ae7ccc93d9126ULL);
}

TEST_CASE("uniform_int stays within its inclusive bounds and reaches both ends") {
  Random r(7, "bounds");
  bool saw_lo = false;
  bool saw_hi = false;
  for (int i = 0; i < 100'000; ++i) {
    const std::int64_t v = r.uniform_int(-3, 3);
    REQUIRE(v >= -3);
    REQUIRE(v <= 3);
    saw_lo = saw_lo || v == -3;
    saw_hi = saw_hi || v == 3;
  }
  CHECK(saw_lo);
  CHECK(saw_hi);
  CHECK(r.uniform_int(5, 5) == 5);
  // The whole 64-bit range (span overflows to 0) must not hang or fault.
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  const std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  (void)r.uniform_int(lo, hi);
  CHECK(r.uniform_int(hi - 1, hi) >= hi - 1);
}

TEST_CASE("uniform_int is uniform: chi-square over 10 buckets") {
  // 100000 draws in [0, 9]; with 9 degrees of freedom the statistic exceeds
  // 27.88 with probability 0.001 if the draws are uniform.
  Random r(2024, "chi-square");
  std::vector<int> counts(10, 0);
  const int n = 100'000;
  for (int i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(r.uniform_int(0, 9))];
  const double expected = n / 10.0;
  double chi2 = 0.0;
  for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
  CHECK(chi2 < 27.88);
}

TEST_CASE("uniform01 lies in [0, 1) with mean 1/2") {
  // Standard error of the mean of 1e6 uniforms: sqrt(1/12 / 1e6) = 0.00029;
  // the band is 5 standard errors.
  Random r(99, "u01");
  double sum = 0.0;
  const int n = 1'000'000;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform01();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
  }
  CHECK(sum / n == doctest::Approx(0.5).epsilon(0.0015 / 0.5));
}

TEST_CASE("exponential has the requested mean") {
  // Standard error of the mean of 1e6 exponentials of mean 3: 3 / 1000 =
  // 0.003; the band is 5 standard errors (0.015). All draws are >= 0.
  Random r(5, "think-time");
  double sum = 0.0;
  const int n = 1'000'000;
  for (int i = 0; i < n; ++i) {
    const double x = r.exponential(3.0);
    REQUIRE(x >= 0.0);
    sum += x;
  }
  CHECK(std::abs(sum / n - 3.0) < 0.015);

  // Durations: mean 2.5 ms, rounding to whole ns changes the mean by < 1 ns.
  Random d(5, "arrivals");
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) total += d.exponential_duration(2'500'000);
  CHECK(std::abs(static_cast<double>(total) / n - 2.5e6) < 5 * 2.5e6 / 1000);
}

TEST_CASE("UniformInt and uniform_int draw lo + x mod span, rejecting x below 2^64 mod span, from the raw stream") {
  // The numbers every seeded run depends on: a change of method would change every output.
  const std::pair<std::int64_t, std::int64_t> ranges[] = {
      {0, 9}, {-3, 3}, {0, 12'000'000 - 1}, {5, 5}, {0, (std::int64_t{1} << 62) + 12345}, {INT64_MIN, INT64_MAX}};
  for (const auto& [lo, hi] : ranges) {
    Random a(7, "a"), b(7, "a"), raw(7, "a");
    const UniformInt draw(lo, hi);
    const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
    for (int i = 0; i < 1000; ++i) {
      std::uint64_t x = raw.next();
      if (span != 0) {
        while (x < (0 - span) % span) x = raw.next();
        x = static_cast<std::uint64_t>(lo) + x % span;
      }
      const auto expected = static_cast<std::int64_t>(x);
      REQUIRE(draw(a) == expected);
      REQUIRE(b.uniform_int(lo, hi) == expected);
    }
  }
}
