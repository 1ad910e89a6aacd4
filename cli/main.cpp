// ckptsim: the command line. run / check / analyze / compare / presets / plot / report / index / devbench /
// calibrate / bench / compare-pg, each registered by its own file (cli/commands/commands.h); this file
// only dispatches.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands/commands.h"
#include "cli/folder/printable.h"

namespace {

using namespace ckptsim::cli;

// A closed stdin, stdout or stderr (`ckptsim run S >&-`) gets /dev/null, so
// that no output file is opened as descriptor 1 and receives the progress lines.
void reserve_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    const int null = ::open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
    if (null >= 0 && null != fd) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
}

// A first word that is no command: name it and the commands, rather than CLI11's "a subcommand is required".
bool refuse_unknown_command(const CLI::App& app, int argc, char** argv) {
  const auto commands = app.get_subcommands({});
  const auto is_command = [&](const std::string& word) {
    return std::any_of(commands.begin(), commands.end(), [&](const CLI::App* sub) { return sub->get_name() == word; });
  };
  if (argc <= 1 || argv[1][0] == '-' || is_command(argv[1])) return false;
  std::string names;
  for (const CLI::App* sub : commands) names += (names.empty() ? "" : ", ") + sub->get_name();
  std::cerr << "error: unknown command \"" << printable(argv[1]) << "\" (expected one of " << names << ")\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  reserve_standard_descriptors();
  CLI::App app{"ckptsim: a discrete-event simulator of PostgreSQL's write path under a pgbench load"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ckptsim " CKPTSIM_VERSION);
  // In the order --help lists them.
  const std::vector<Command> commands = {add_run(app),      add_check(app),     add_analyze(app), add_compare(app),
                                         add_presets(app),  add_plot(app),      add_report(app),  add_index(app),
                                         add_devbench(app), add_calibrate(app), add_bench(app),   add_compare_pg(app),
                                         add_validate(app)};

  if (refuse_unknown_command(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every command-line error exits 2, as bad
    // input does. CLI11's messages quote the arguments: printed escaped.
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    std::cout << out.str();
    std::cerr << printable_lines(err.str());
    return code == 0 ? 0 : 2;
  }
  int rc = 2;
  for (const Command& command : commands) {
    if (command.app->parsed()) rc = command.run();
  }
  // What stdout could not take (a full disk, a closed pipe) is an error, not a success.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "error: writing to standard output failed\n";
    return rc == 0 ? 1 : rc;
  }
  return rc;
}
