// `ckptsim report DIR`: a grid's table and plots from its point folders (cli/report/grid_report.h).
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/commands/commands.h"
#include "cli/folder/folder_refused.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/pages/results_index.h"
#include "cli/report/grid_report.h"

namespace ckptsim::cli {

int command_report(const std::string& dir) {
  GridReport report;
  try {
    if (!std::filesystem::is_regular_file(std::filesystem::path(dir) / run_files::kGridRecord))
      throw FolderRefused(fmt::format("{}: not a grid folder (no {})", dir, run_files::kGridRecord));
    // Not while a run writes there; it rewrites the grid's files beside the points.
    const ClaimedOutput claimed = claim_output(
        dir, true, "report rewrites the grid's files only in a folder of ckptsim's outputs: move them away first");
    report = report_grid(claimed.dir, true);
  } catch (const std::exception& e) {  // a refused folder (exit 2), or a file not written (1)
    return report_failure(e);
  }
  std::cout << report.text;
  refresh_indexes(dir);
  if (report.missing.empty()) return 0;
  std::cerr << "ckptsim: " << report.missing.size() << " point(s) missing or incomplete, left out of the table:\n";
  for (const std::string& name : report.missing) std::cerr << "  " << printable(name) << '\n';
  return 1;
}

Command add_report(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand(
      "report", fmt::format("Write a grid's {}, {} and plots again from its point folders, and name the missing ones",
                            run_files::kSummaryCsv, run_files::kReportTxt));
  cmd->add_option("dir", *dir, fmt::format("A grid folder ({})", run_files::kGridRecord))->required();
  return {cmd, [dir] { return command_report(*dir); }};
}

}  // namespace ckptsim::cli
