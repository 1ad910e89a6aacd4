// A grid's progress on stderr (cli/run/grid_progress.h): off a terminal, one line
// per finished point; nothing with --quiet.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "cli/run/grid_progress.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;

namespace {

const char* kFourPoints = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
  "postgres": {"shared_buffers": "64MB"},
  "pgbench": {"scale": 5, "clients": 2, "duration": "3s"},
  "grid": {"postgres.checkpoint_sorting": [true, false], "pgbench.clients": [1, 2]},
  "seed": 3
})";

// Runs ckptsim with its stderr into a pipe (read by cat into a file), stdout discarded.
std::string stderr_through_pipe(const std::string& args, const TempDir& tmp) {
  const auto err = tmp / "piped-stderr.txt";
  const std::string command =
      "{ " + std::string(CKPTSIM_BINARY) + " " + args + " 2>&1 >/dev/null; } | cat >" + err.string();
  REQUIRE(std::system(command.c_str()) == 0);
  return slurp(err);
}

}  // namespace

TEST_CASE("a grid with stderr to a pipe prints exactly one line per finished point, and none with --quiet") {
  TempDir tmp("grid-progress");
  write_text(tmp / "g.json", kFourPoints);
  const std::string run = "run " + (tmp / "g.json").string() + " --jobs 2 --out " + (tmp / "g").string();
  const std::string err = stderr_through_pipe(run, tmp);
  CHECK(std::count(err.begin(), err.end(), '\n') == 4);
  CHECK(err.find('\r') == std::string::npos);  // no redrawn bar off a terminal
  for (const char* point : {"checkpoint_sorting=true,clients=1", "checkpoint_sorting=true,clients=2",
                            "checkpoint_sorting=false,clients=1", "checkpoint_sorting=false,clients=2"})
    CHECK_MESSAGE(err.find(std::string(" done: ") + point + " (") != std::string::npos, point);
  for (const char* n : {"point 1 of 4 ", "point 2 of 4 ", "point 3 of 4 ", "point 4 of 4 "})
    CHECK_MESSAGE(err.find(n) != std::string::npos, n);

  // A rerun with the same settings keeps every point: still one line each.
  const std::string again = stderr_through_pipe(run, tmp);
  CHECK(std::count(again.begin(), again.end(), '\n') == 4 + 1);  // and the "kept 4 of 4 points" note
  CHECK(again.find("point 4 of 4 kept: ") != std::string::npos);

  CHECK(stderr_through_pipe(run + " --quiet --set pgbench.duration=2s", tmp) == "");
}

TEST_CASE("ETA text: seconds, then minutes and seconds, then hours and minutes") {
  CHECK(ckptsim::cli::eta_text(0.4) == "0s");
  CHECK(ckptsim::cli::eta_text(59.4) == "59s");
  CHECK(ckptsim::cli::eta_text(65) == "1m05s");
  CHECK(ckptsim::cli::eta_text(7380) == "2h03m");
}
