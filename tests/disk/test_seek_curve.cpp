// tests/disk/test_seek_curve.cpp
//
// The seek curve reproduces its three datasheet figures, and the steady-state
// write amplification formula its published values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "models/disk/seek_curve.h"
#include "models/disk/write_amplification.h"
#include "sim/random.h"
#include "tests/disk/presets.h"

using namespace ckptsim;
using namespace ckptsim::disk;

namespace {
// Mean seek time over uniformly random start and end cylinders: the
// datasheet definition of "average seek".
double mean_random_seek_ms(const SeekCurve& curve, std::int64_t cylinders) {
  sim::Random random(7, "seek-pairs");
  double sum = 0;
  constexpr int kPairs = 200000;
  for (int i = 0; i < kPairs; ++i) {
    const std::int64_t a = random.uniform_int(0, cylinders - 1), b = random.uniform_int(0, cylinders - 1);
    sum += curve.millis(std::llabs(a - b));
  }
  return sum / kPairs;
}
}  // namespace

TEST_CASE("Lee's 3-point curve: t(1) = single, t(N) = full, mean over random pairs = average") {
  for (const std::string name : {"hdd-7200-sata", "hdd-15k-sas"}) {
    CAPTURE(name);
    const DeviceConfig c = testing::preset(name);
    const SeekCurve curve(c.hdd.seek_single, c.hdd.seek_average, c.hdd.seek_full, c.hdd.cylinders);
    CHECK_FALSE(curve.two_part());
    CHECK(curve(0) == 0);
    CHECK(curve(1) == c.hdd.seek_single);  // exact by construction
    CHECK(curve(c.hdd.cylinders) == c.hdd.seek_full);
    // Exact for a continuous uniform distance; 200 000 sampled pairs leave
    // well under 1 % of sampling error.
    CHECK(mean_random_seek_ms(curve, c.hdd.cylinders) ==
          doctest::Approx(sim::to_millis(c.hdd.seek_average)).epsilon(0.01));
  }
}

TEST_CASE("the 7200 rpm preset's curve has the reference's coefficients") {
  // docs/reference/os-disk-model.md 4.7: a = 0.0250, b = 2.47e-5 for 0.9 / 8.5 / 17 ms over 200 000 cylinders.
  const SeekCurve curve(900 * sim::kMicrosecond, 8500 * sim::kMicrosecond, 17 * sim::kMillisecond, 200000);
  const double a = (curve.millis(10001) - curve.millis(1) - 2.47e-5 * 10000) / 100;
  CHECK(a == doctest::Approx(0.0250).epsilon(0.01));
}

TEST_CASE("figures that make Lee's coefficients negative fall back to the two-part curve") {
  // A flat curve: an average of 3/4 of the full stroke gives b < 0.
  const SeekCurve curve(2 * sim::kMillisecond, 6 * sim::kMillisecond, 8 * sim::kMillisecond, 100000);
  CHECK(curve.two_part());
  CHECK(curve.millis(1) == doctest::Approx(2.0).epsilon(1e-6));
  CHECK(curve.millis(100000) == doctest::Approx(8.0).epsilon(1e-6));
  CHECK(mean_random_seek_ms(curve, 100000) == doctest::Approx(6.0).epsilon(0.01));
  // Monotone: a longer seek never costs less.
  for (std::int64_t d = 1; d < 100000; d += 997) CHECK(curve.millis(d + 997) >= curve.millis(d));
}

TEST_CASE("steady-state write amplification follows Xiang and Kurkoski") {
  // docs/reference/os-disk-model.md 5.3: rho 0.07 -> ~7.6, 0.20 -> ~3.2, 0.28 -> ~2.5, 0.30 -> 2.36.
  // (The formula itself gives 7.82 at 0.07: the reference's figure is rounded.)
  CHECK(steady_state_write_amplification(0.07) == doctest::Approx(7.6).epsilon(0.04));
  CHECK(steady_state_write_amplification(0.20) == doctest::Approx(3.2).epsilon(0.02));
  CHECK(steady_state_write_amplification(0.28) == doctest::Approx(2.5).epsilon(0.02));
  CHECK(steady_state_write_amplification(0.30) == doctest::Approx(2.36).epsilon(0.01));
  CHECK(lambert_w0(0.0) == doctest::Approx(0.0));
  CHECK(lambert_w0(-0.1) * std::exp(lambert_w0(-0.1)) == doctest::Approx(-0.1).epsilon(1e-12));
}
