// analysis/sort_flush_table.h
//
// The table of the E1 thread (Fabien Coelho's checkpoint sorting and flushing
// patch, pgsql-hackers 2015; docs/reference/seed-experiments.md, E1), for a
// grid over postgres.checkpoint_sorting and a *_flush_after setting:
//
//   sort/flush : tps avg & stddev (percent of time below 10.0 tps)
//
//   sort / flush | c1                | j2c4
//   -------------+-------------------+-------------------
//   on  / on     | 564 ± 148 ( 0.1%) | 757 ± 417 ( 0.1%)
//   on  / off    | 470 ± 340 (21.7%) | 752 ± 893 (48.4%)
//
// One row per combination, sorting on before off and flushing on before off
// as the thread printed them (a flush axis with several non-zero values names
// each value instead of "on"); one column per test type: what the grid's
// other axes make of a point ("key=value" joined by ","; a lone bundle axis,
// whose values are names such as "j2c4", its value alone), in grid order.
// A column whose points skipped or were late under -R / -L adds each cell's
// skipped + late percentage of transactions. With repeats, a cell holds the
// mean of its repeats' figures, and a line under the table says so.
//
// Left out: any combination the grid does not have (its cell stays empty).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/report.h"

namespace ckptsim::analysis {

struct SortFlushTable {
  std::string caption;                          // "sort/flush : tps avg & stddev (percent of time below 10.0 tps)"
  std::vector<std::string> test_types;          // the column headers
  std::vector<std::string> combinations;        // the row labels, "on  / on" ...
  std::vector<std::vector<std::string>> cells;  // [combination][test type], "" where the grid has no point
  std::string note;                             // "" or what a cell stands for (repeats)
};

// nullopt unless the grid varies checkpoint sorting and a *_flush_after setting.
std::optional<SortFlushTable> sort_flush_table(const std::vector<std::string>& grid_columns,
                                               const std::vector<ReportRow>& rows, double threshold);

// The table as text, every line ending in "\n".
std::string format_sort_flush_table(const SortFlushTable& table);

}  // namespace ckptsim::analysis
