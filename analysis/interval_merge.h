// analysis/interval_merge.h
//
// A log written at a fine interval judged at a coarser one: a `-P 1` log
// held against a simulation at 5 s, or two runs of different -P brought to
// the same terms. Each coarse interval's tps is the mean of the fine ones it
// holds, which is its transactions over its length, as pgbench would have
// printed at -P 5; a stall second (0 tps) weighs in as the 0 it was.
//
// Left out: coarse intervals that are not a whole number of the file's own
// (2.5 s over a 1 s log would split a second between two): refused.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

namespace ckptsim::analysis {

// How many of a file's own intervals (own_s) make one of interval_s: 0 when
// interval_s is not above own_s (the file is read on its own terms), k >= 2
// when interval_s is k times own_s. `readings` is how many readings measured
// own_s: with fewer than 2 it is a guess, and 0 is returned. Throws naming
// `file` for an interval_s above own_s that is not a whole multiple of it.
std::size_t intervals_per_merge(double own_s, double interval_s, std::size_t readings,
                                const std::filesystem::path& file);

// The series with every `k` consecutive intervals replaced by their mean. A
// last group cut short by the run's end is the mean of the intervals it had.
std::vector<double> merge_intervals(const std::vector<double>& series, std::size_t k);

}  // namespace ckptsim::analysis
