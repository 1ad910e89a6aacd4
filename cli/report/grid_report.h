// cli/report/grid_report.h
//
// A grid's own files, built from its folder alone: grid.json (what the grid
// is: its points, the setting paths it varies and each point's values, its
// repeats) and, from each point folder's summary.json, summary.csv,
// report.txt and the plots. The end of `ckptsim run` and `ckptsim report DIR`
// both call report_grid, so a grid whose points ran in one process, in
// shards, or on other machines and were copied back gets the same files.
//
// grid.json's keys: "title", "points" (folder names in running order),
// "scenario_file", "chain" (chained grids), "threshold" (--threshold),
// "paths" (the grid's setting paths), "values" (per point, its value for each
// path), and with "repeat": N > 1 "point_repeat" (each point's repeat index)
// and "repeat_of" (the name of the point it repeats; "" without a grid).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "scenarios/scenario.h"

namespace ckptsim::cli {

// Writes grid.json for `plan` into `dir` (before any point runs: shards and
// single points write it too, the same bytes).
void write_grid_record(const std::filesystem::path& dir, const scenarios::Plan& plan, const std::string& title,
                       double threshold, const std::string& scenario_file);

struct GridReport {
  std::string text;                  // report.txt's
  std::vector<std::string> missing;  // points without a complete run in their folder
};

// Writes summary.csv, report.txt and the plots of the grid in `dir` from its
// grid.json and point folders. A point whose folder holds no complete run
// (missing, stopped, from a killed run) is left out of the table and the
// plots, and report.txt ends with a line naming those points. Throws
// FolderRefused when `dir` has no grid.json ckptsim wrote.
GridReport report_grid(const std::filesystem::path& dir, bool warn_without_gnuplot);

}  // namespace ckptsim::cli
