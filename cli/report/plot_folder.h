// cli/report/plot_folder.h
//
// The plots of a run folder or a grid folder, from its CSVs alone, so that
// `run` draws them at its end and `ckptsim plot DIR` draws them again (after
// an edit of plot.gp's defaults, a newer ckptsim, a copied results tree).
// A grid folder is known by its grid.json: the grid's title and its points'
// folder names in grid order; each point's stability comes from its summary.json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ckptsim::cli {

// Whether `dir`'s plot.gp is the one ckptsim wrote, by the checksum `record`
// (run.json, grid.json) keeps of it; false without a checksum.
bool plot_script_is_own(const std::filesystem::path& dir, const std::filesystem::path& record);

// A grid folder's grid.json: its title and its points' folders, in grid
// order. Throws FolderRefused naming the file when DIR has no grid.json, it is
// not one ckptsim wrote, or a point is no plain folder name under DIR or is a
// symbolic link.
// With `missing_ok`, a point without a folder is listed in `missing` instead
// (`ckptsim report` over a grid whose shares are not all back).
struct GridIndex {
  std::string title;
  std::vector<std::filesystem::path> points;
  std::vector<std::string> missing;
};
GridIndex read_grid_index(const std::filesystem::path& dir, bool missing_ok = false);

// Plots DIR (a run folder: progress.csv; or a grid folder: grid.json). A run
// with nothing to draw (analysis::plot_run) gets a warning on stderr instead
// of plots, and is left out of its grid's. Throws FolderRefused (bad input)
// naming DIR when it is neither, or when a point of grid.json is no plain
// folder name under DIR or is a symbolic link; std::runtime_error when a plot
// cannot be written. `shown` names the folder in warnings when DIR is where
// it is staged (run.tmp.PID): the user's --out, not the temporary name.
void plot_folder(const std::filesystem::path& dir, const std::string& run_title = "", bool missing_ok = false,
                 const std::filesystem::path& shown = {});

}  // namespace ckptsim::cli
