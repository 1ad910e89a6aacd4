// `ckptsim index DIR`: the results index's pages over every run and grid under DIR.

#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/stop.h"
#include "cli/pages/results_index.h"

namespace ckptsim::cli {

int command_index(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) {
    std::cerr << "error: " << printable(dir) << ": not a folder\n";
    return 2;
  }
  install_stop_handlers();
  try {
    const IndexWritten written = write_results_index(dir);
    std::cout << fmt::format("{}: {}, {}, {}\n", (std::filesystem::path(dir) / run_files::kIndexHtml).string(),
                             counted(written.runs, "run", "runs"), counted(written.grids, "grid", "grids"),
                             counted(written.pages, "page", "pages"));
  } catch (const Stopped& e) {
    std::cerr << "error: the index was not written: " << printable(e.what()) << '\n';
    return stop_exit_code(e.reason());
  } catch (const std::exception& e) {  // a refused folder (exit 2), or a file not written (1)
    return report_failure(e);
  }
  return 0;
}

Command add_index(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "index", fmt::format("Write {} (and {}/ pages) over every run and grid under a folder, for a browser",
                           run_files::kIndexHtml, run_files::kIndexFolder));
  cmd->add_option("dir", *dir, "The results folder")->required();
  return {cmd, [dir] { return command_index(*dir); }};
}

}  // namespace ckptsim::cli
