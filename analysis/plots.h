// analysis/plots.h
//
// gnuplot plots of a run and of a grid, in the tradition of pgbench-tools'
// tps.png: tps over time (from progress.csv) and, beside it, what the kernel
// and the disk were doing (dirty / writeback memory and the device queue from
// system.csv), so that a tps collapse can be matched to its I/O storm.
//
// Each function first writes a gnuplot script into the folder (plot.gp) that a
// user can edit and re-run there with `gnuplot plot.gp`; the script names its
// data files relative to that folder and picks columns by name, so it is the
// same text on every machine. It then runs gnuplot on it; images are rendered
// under temporary names (the script's `suffix` variable) and renamed into
// place, so a failed render never leaves a truncated PNG under a final name.
//
// Lines join consecutive rows: an interval missing from progress.csv is
// bridged, not drawn at 0 (ckptsim writes every interval; read_tps_series
// fills gaps of real pgbench logs for the figures).
//
// gnuplot runs with the folder as its working directory (posix_spawn, no
// shell: a folder named "-" is that folder). If gnuplot is not installed the
// script is still written and nothing is rendered or printed (the caller
// warns once). If gnuplot fails, or exits 0 with an image cut short (a full
// disk: a PNG without its IEND chunk, an SVG without </svg>), the functions
// throw std::runtime_error with its output or the reason (ENOSPC by name when
// the file system is full), and every image keeps its previous content.
//
// A run's plots shade each checkpoint (checkpoints.csv: write phase light,
// sync phase darker, a dashed line at its start) behind every panel, and
// system.png stacks tps, latency p50/p99/max (log scale), dirty and writeback
// memory, the device queue, the device awaits, a cloud volume's budget (when
// the run has one) and the wait events.
//
// Left out: 3D client x scale surfaces (pgbench-tools has them;
// ckptsim's grids vary settings, not scale).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stability.h"

namespace ckptsim::analysis {

// Whether a working gnuplot is on PATH (checked once per process).
bool gnuplot_available();

// The names of the files a plot reads and writes in its folder. The caller
// gives them (cli/folder/run_files.h names every file of a run folder); the
// comments below use ckptsim's names.
struct RunPlotNames {
  std::string script;                                // plot.gp
  std::string progress, system, waits, checkpoints;  // what it reads
  std::string tps_png, tps_svg, system_png;          // what it draws
};
struct GridPlotNames {
  std::string script;       // plot.gp
  std::string checkpoints;  // beside each point's progress.csv
  std::string overlay_png, overlay_svg, grid_png, stability_png;
};

struct PlotSeries {
  std::string title;                   // legend / panel title, e.g. "sort=on flush=256kB"
  std::filesystem::path csv;           // that point's progress.csv (its checkpoints.csv beside it shades its panel)
  std::optional<Stability> stability;  // for the bar chart; no chart unless every point has one
};

// run_dir/plot.gp, tps.png and tps.svg from run_dir/progress.csv (columns
// time_s, tps); system.png when run_dir/system.csv has time_s and any of
// dirty_mb, writeback_mb, aqu_sz (tps, memory and queue panels, stacked),
// with a panel of wait events as average active sessions when run_dir/waits.csv exists.
// Returns why nothing was drawn (no script, no image) for a run with nothing
// to plot: no interval in progress.csv, or no transaction in any; "" otherwise.
// Throws std::runtime_error if progress.csv is missing or lacks the columns.
std::string plot_run(const std::filesystem::path& run_dir, const std::string& title, const RunPlotNames& names);

// grid_dir/plot.gp, tps-overlay.png/.svg (every point's tps, thin, and its
// moving average, bold; the legend below the data; beyond 8 points, stacked
// panels of at most 8 lines on shared axes, the points numbered), tps-grid.png (small
// multiples: one panel per point in two columns, in the given order, on shared
// axes, each shaded with its checkpoints) and stability.png (bars of tps mean
// ± stddev and of the percentage of intervals below the threshold; beyond 8
// points numbered, the names listed beside the charts, so labels never collide).
// Does nothing for an empty list.
void plot_grid(const std::filesystem::path& grid_dir, const std::vector<PlotSeries>& points, const std::string& title,
               const GridPlotNames& names);

// One run's tps per interval for plot_compare: interval i ends at (i + 1) * interval_s.
struct CompareSeries {
  std::string title;  // the key's entry: the run and its stability figures
  double interval_s = 1;
  std::vector<double> tps;
};
struct ComparePlotNames {
  std::string script, png, svg;  // compare.gp, compare.png, compare.svg
};

// out_dir/compare.gp, compare.png and compare.svg: a real run's and a
// simulated run's tps per interval on one time axis, the simulated run's
// checkpoints (simulated_checkpoints, when that file exists) shaded as in its
// own plots. The series are written into the script (datablocks), so it
// re-runs without the logs it was drawn from.
void plot_compare(const std::filesystem::path& out_dir, const CompareSeries& real, const CompareSeries& simulated,
                  const std::filesystem::path& simulated_checkpoints, const std::string& title,
                  const ComparePlotNames& names);

}  // namespace ckptsim::analysis
