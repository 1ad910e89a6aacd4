// cli/commands/commands.h
//
// The subcommands of the ckptsim binary. Each file of cli/commands/ that is a
// command registers it: add_X adds the subcommand with its arguments, options
// and help, and returns it with the call that runs it once the command line
// named it. main.cpp adds them in the order --help lists them.
//
// The call returns the process exit code: 0 on success, 1 when a run or a
// write failed, 2 on bad input (nothing was run) or a refused output folder
// (cli/folder/run_folder.h), and for a run that was stopped
// (cli/folder/stop.h) 130 (SIGINT), 143 (SIGTERM or SIGHUP) or 3 (--max-wall).
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace ckptsim::cli {

struct Command {
  CLI::App* app;             // parsed() when the command line named it
  std::function<int()> run;  // the exit code
};

Command add_run(CLI::App& app);
Command add_check(CLI::App& app);
Command add_analyze(CLI::App& app);
Command add_compare(CLI::App& app);
Command add_presets(CLI::App& app);
Command add_plot(CLI::App& app);
Command add_report(CLI::App& app);
Command add_index(CLI::App& app);
Command add_devbench(CLI::App& app);
Command add_calibrate(CLI::App& app);
Command add_bench(CLI::App& app);
Command add_compare_pg(CLI::App& app);
Command add_validate(CLI::App& app);

}  // namespace ckptsim::cli
