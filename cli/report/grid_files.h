// cli/report/grid_files.h
//
// A grid folder's own files (summary.csv and report.txt, the table;
// grid.json; the grid plots; the results index's pages over the folder) are
// derived from its points. A point is replaced as a whole (cli/folder/staged_folder.h),
// but the grid's files are several and are written one by one at the end,
// so replacing them as one set would need every reader (index, plot,
// analyze) to follow a manifest. Instead the set is retired at the start of
// a rerun whose points change: from then on the folder holds no table until
// every point is done and the new set is written. A kill or a failure
// therefore leaves the earlier set beside the earlier points, or no set (or
// part of the new one) beside points of which some are new, never the
// earlier table beside new points. Resuming a killed grid is unchanged: its
// finished points are kept (cli/folder/run_folder.h) and the set is written when the
// last one is done; meanwhile `ckptsim index DIR` lists the points as runs.
//
// plot.gp and plot.ckptsim.gp stay: a script may be the user's edit
// (plot_folder.h), and the end of the run writes them again.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/folder/run_folder.h"

namespace ckptsim::cli {

// Before a grid runs into `out` (prepared by prepare_output, so every file of
// a grid's name there is ckptsim's): removes the earlier grid's own files
// unless every point is kept and grid.json names the same points, in which
// case the set already describes them and is left whole.
void retire_earlier_grid_files(const std::filesystem::path& out, const std::vector<std::string>& point_names,
                               const std::vector<std::optional<KeptPoint>>& kept);

}  // namespace ckptsim::cli
