// `ckptsim plot DIR`: a run's or a grid's plots drawn again, then the index refreshed.
#include "cli/commands/commands.h"

#include <iostream>

#include "analysis/plots.h"
#include "cli/pages/results_index.h"
#include "cli/run/folder_refused.h"
#include "cli/run/plot_folder.h"
#include "cli/run/printable.h"

namespace ckptsim::cli {

int command_plot(const std::string& dir) {
  if (!analysis::gnuplot_available()) {
    std::cerr << "error: gnuplot not found (scripts/setup installs it)\n";
    return 1;
  }
  try {
    plot_folder(dir);
  } catch (const FolderRefused& e) {
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 2;
  } catch (const std::exception& e) {  // a plot that could not be written
    std::cerr << "error: " << printable(e.what()) << '\n';
    return 1;
  }
  refresh_indexes(dir);
  return 0;
}

}  // namespace ckptsim::cli
