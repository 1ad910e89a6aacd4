// cli/pages/index_pages.h
//
// The pages of the results index (where each lives: cli/pages/index_layout.h).
// Each returns the whole page's text; cli/pages/results_index.h writes them.
#pragma once

#include <string>

#include "cli/pages/results_tree.h"

namespace ckptsim::cli {

// One table of grids, one sortable row per run (cli/pages/index_columns.h).
std::string index_html(const ResultsTree& tree);
// A run's settings, figures, plots, pgbench's summary, summary.json, postgres.log, files.
std::string run_html(const ResultsTree& tree, const RunEntry& run);
// A grid's summary.csv as a table, linked to its points, its plots, report.txt, files.
std::string grid_html(const ResultsTree& tree, const GridEntry& grid);
// Any two runs or grids: the settings that differ, the figures side by side,
// the tps overlaid, drawn by an inline script from data embedded as JSON.
std::string compare_html(const ResultsTree& tree);

}  // namespace ckptsim::cli
