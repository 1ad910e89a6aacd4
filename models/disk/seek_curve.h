// models/disk/seek_curve.h
//
// The time an HDD's arm takes to move a given number of cylinders, from the
// three figures a datasheet gives: single-cylinder, average and full-stroke
// seek (docs/reference/os-disk-model.md 4.2).
//
// Lee's 3-point curve (E. K. Lee and R. H. Katz 1993, DiskSim's "curve" seek
// type):
//   t(d) = t1 + a sqrt(d - 1) + b (d - 1),
//   a = (-10 t1 + 15 ta - 5 tf) / (3 sqrt(N - 1)),  b = (7 t1 - 15 ta + 8 tf) / (3 (N - 1))
// It gives t1 at one cylinder, tf at N, and ta as the mean over uniformly
// random start and end cylinders, which is how datasheets define "average".
// The square-root part is the arm's acceleration-limited short seek, the
// linear part its coasting at top speed (Ruemmler and Wilkes 1994).
//
// When the three figures make a or b negative, the curve falls back to
// Ruemmler and Wilkes' two-part form: a + b sqrt(d) below d0 = N/5 and linear
// beyond, through t1 and tf, continuous at d0, with the square-root slope
// chosen so that the mean over random pairs is ta.
//
// Left out: settle time variation, the head switch (added by the caller),
// seek-direction asymmetry.
#pragma once

#include <cstdint>

#include "sim/time.h"

namespace ckptsim::disk {

class SeekCurve {
 public:
  SeekCurve(sim::Duration single, sim::Duration average, sim::Duration full, std::int64_t cylinders);

  // Seek time over `distance` cylinders; 0 for no movement.
  sim::Duration operator()(std::int64_t distance) const;
  double millis(std::int64_t distance) const;
  bool two_part() const { return two_part_; }

 private:
  double curve(double distance) const;
  double mean_over_random_pairs() const;

  double t1_;  // ms
  double n_;   // cylinders
  bool two_part_ = false;
  // Lee: t1 + a sqrt(d-1) + b (d-1). Two-part: a + b sqrt(d) below d0, c + e d above.
  double a_ = 0, b_ = 0, c_ = 0, e_ = 0, d0_ = 0;
};

}  // namespace ckptsim::disk
