// tests/cli/test_plot_scripts.cpp
//
// A grid's gnuplot scripts (plot.gp) across `ckptsim plot DIR` and grid
// reruns: ckptsim's own are redrawn or replaced in place, one the user edited
// is kept with ckptsim's beside it (cli/report/plot_folder.h).
#include <doctest/doctest.h>

#include <string>

#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

TEST_CASE("ckptsim plot DIR keeps a plot.gp the user edited, writes its own beside it, and says so") {
  TempDir tmp("plot-edited");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string out = (tmp / "g").string();
  REQUIRE(run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=5s --out " + out, tmp)
              .exit_code == 0);
  const fs::path point = tmp / "g" / "clients=1,checkpoint_sorting=true";
  const std::string own_point = slurp(point / "plot.gp"), own_grid = slurp(tmp / "g" / "plot.gp");

  // Untouched scripts are ckptsim's: redrawn in place, nothing beside them.
  auto r = run_ckptsim("plot " + out, tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("edited") == std::string::npos);
  CHECK_FALSE(fs::exists(point / "plot.ckptsim.gp"));

  write_text(point / "plot.gp", own_point + "set title 'mine'\n");
  write_text(tmp / "g" / "plot.gp", own_grid + "set title 'mine too'\n");
  r = run_ckptsim("plot " + out, tmp);
  REQUIRE(r.exit_code == 0);
  CHECK(slurp(point / "plot.gp") == own_point + "set title 'mine'\n");
  CHECK(slurp(tmp / "g" / "plot.gp") == own_grid + "set title 'mine too'\n");
  CHECK(fs::exists(point / "plot.ckptsim.gp"));
  CHECK(fs::exists(tmp / "g" / "plot.ckptsim.gp"));
  CHECK(r.err.find((point / "plot.gp").string() + ": edited since ckptsim wrote it, so kept") != std::string::npos);
  CHECK(r.err.find((tmp / "g" / "plot.gp").string() + ": edited") != std::string::npos);

  // The checksum is no setting: the grid still resumes every point.
  r = run_ckptsim("run " + (tmp / "g.json").string() + " --set pgbench.duration=5s --out " + out, tmp);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("kept 4 of 4 points") != std::string::npos);
  // The resumed grid rewrote grid.json and drew again: the user's grid script is still theirs.
  CHECK(slurp(tmp / "g" / "plot.gp") == own_grid + "set title 'mine too'\n");

  // A rerun whose points change retires the grid's own files, never the user's script.
  r = run_ckptsim("run " + (tmp / "g.json").string() + " --set pgbench.duration=6s --out " + out, tmp);
  CHECK(r.exit_code == 0);
  CHECK(slurp(tmp / "g" / "plot.gp") == own_grid + "set title 'mine too'\n");
  CHECK(fs::exists(tmp / "g" / "plot.ckptsim.gp"));
}

TEST_CASE("a grid rerun whose points change replaces ckptsim's own unedited plot.gp in place") {
  TempDir tmp("plot-own");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string out = (tmp / "g").string();
  REQUIRE(run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=5s --out " + out, tmp)
              .exit_code == 0);
  REQUIRE(run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=6s --out " + out, tmp)
              .exit_code == 0);
  CHECK(fs::exists(tmp / "g" / "plot.gp"));
  CHECK_FALSE(fs::exists(tmp / "g" / "plot.ckptsim.gp"));
}

TEST_CASE("ckptsim plot DIR draws a grid's plots again from its CSVs, the same script as the run wrote") {
  TempDir tmp("folder-plot");
  write_text(tmp / "g.json", kFourPointGrid);
  REQUIRE(
      run_ckptsim(
          "run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=5s --out " + (tmp / "g").string(), tmp)
          .exit_code == 0);
  const fs::path point = tmp / "g" / "clients=2,checkpoint_sorting=true";
  const std::string grid_script = slurp(tmp / "g" / "plot.gp");
  CHECK(grid_script.find("set multiplot layout 2,2 title 'g'") != std::string::npos);  // the scenario's name
  CHECK(slurp(point / "plot.gp").find("title 'g: clients=2,checkpoint_sorting=true'") != std::string::npos);
  fs::remove(tmp / "g" / "plot.gp");
  fs::remove(point / "plot.gp");
  fs::remove(tmp / "g" / "tps-grid.png");
  const auto r = run_ckptsim("plot " + (tmp / "g").string(), tmp);
  CHECK(r.exit_code == 0);
  CHECK(slurp(tmp / "g" / "plot.gp") == grid_script);
  CHECK(fs::exists(point / "plot.gp"));
  CHECK(fs::exists(tmp / "g" / "tps-grid.png"));
  CHECK(fs::exists(tmp / "g" / "stability.png"));

  const auto not_a_run = run_ckptsim("plot " + tmp.path().string(), tmp);
  CHECK(not_a_run.exit_code == 2);
  CHECK(not_a_run.err.find("neither a run folder (progress.csv) nor a grid folder (grid.json)") != std::string::npos);
}
