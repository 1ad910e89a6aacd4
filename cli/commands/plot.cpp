// `ckptsim plot DIR`: a run's or a grid's plots drawn again, then the index refreshed.
#include "cli/commands/commands.h"

#include <iostream>

#include "analysis/plots.h"
#include "cli/pages/results_index.h"
#include "cli/folder/folder_refused.h"
#include "cli/report/plot_folder.h"
#include "cli/folder/printable.h"

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

}  // namespace ckptsim::cli
