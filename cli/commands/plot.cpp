// `ckptsim plot DIR`: a run's or a grid's plots drawn again, then the index refreshed.

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "analysis/plots.h"
#include "cli/commands/commands.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/pages/results_index.h"
#include "cli/report/plot_folder.h"

namespace ckptsim::cli {

int command_plot(const std::string& dir) {
  if (!analysis::gnuplot_available()) {
    std::cerr << "error: gnuplot not found (scripts/setup installs it)\n";
    return 1;
  }
  try {
    plot_folder(dir);
  } catch (const std::exception& e) {  // a refused folder (exit 2), or a file not written (1)
    return report_failure(e);
  }
  refresh_indexes(dir);
  return 0;
}

Command add_plot(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("plot", "Draw a run's or a grid's plots again from its CSVs");
  cmd->add_option(
         "dir", *dir,
         fmt::format("A run folder ({}) or a grid folder ({})", run_files::kProgressCsv, run_files::kGridRecord))
      ->required();
  return {cmd, [dir] { return command_plot(*dir); }};
}

}  // namespace ckptsim::cli
