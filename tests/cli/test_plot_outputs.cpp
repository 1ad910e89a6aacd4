// What the plots leave in unusual folders and runs: gnuplot runs in the run's
// folder whatever its name, a disk that fills mid-render leaves the previous
// images, and a run with nothing to plot gets its CSVs and a warning
// (analysis/plots.h, cli/report/plot_folder.h).
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/plots.h"
#include "tests/cli/run_helpers.h"

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

const char* kSingle = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
  "postgres": {"shared_buffers": "64MB"},
  "pgbench": {"scale": 10, "clients": 2, "duration": "5s"},
  "warmup": {"duration": "0s"},
  "seed": 3
})";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A PNG written to its end closes with its IEND chunk.
bool png_complete(const fs::path& png) {
  static const std::string iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
  const std::string data = slurp(png);
  return data.size() > iend.size() && data.compare(data.size() - iend.size(), iend.size(), iend) == 0;
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  if (!fs::exists(dir)) return names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

// Runs `shell_prefix ckptsim args` through /bin/sh from `cwd`, output captured.
CommandResult run_in(const fs::path& cwd, const std::string& shell_prefix, const std::string& args,
                     const TempDir& tmp) {
  const auto out = tmp / "stdout.txt", err = tmp / "stderr.txt";
  const std::string command = "cd '" + cwd.string() + "' && " + shell_prefix + " " + CKPTSIM_BINARY + " " + args +
                              " >" + out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

}  // namespace

TEST_CASE("--out - and --out -- are folders of that name: gnuplot runs there, not in $OLDPWD or $HOME") {
  if (!ckptsim::analysis::gnuplot_available()) return;
  TempDir tmp("plot-dash");
  write_text(tmp / "s.json", kSingle);
  fs::create_directories(tmp / "cwd");
  fs::create_directories(tmp / "home");
  fs::create_directories(tmp / "oldpwd");
  // A shell's `cd -` goes to $OLDPWD and `cd --` to $HOME: both are empty folders here.
  const std::string env = "HOME='" + (tmp / "home").string() + "' OLDPWD='" + (tmp / "oldpwd").string() + "'";
  for (const std::string out : {"-", "--"}) {
    CAPTURE(out);
    const auto r = run_in(tmp / "cwd", env, "run " + (tmp / "s.json").string() + " --quiet --out=" + out, tmp);
    CHECK(r.exit_code == 0);
    CHECK(r.err == "");
    CHECK(png_complete(tmp / "cwd" / out / "tps.png"));
    CHECK(png_complete(tmp / "cwd" / out / "system.png"));
    CHECK(names_in(tmp / "home").empty());
    CHECK(names_in(tmp / "oldpwd").empty());
  }
}

TEST_CASE("a disk that fills while gnuplot renders: exit 1, and every image keeps its complete previous content") {
  if (!ckptsim::analysis::gnuplot_available()) return;
  TempDir tmp("plot-full");
  write_text(tmp / "s.json", kSingle);
  REQUIRE(run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "r").string(), tmp).exit_code ==
          0);
  const std::string tps = slurp(tmp / "r" / "tps.png"), system = slurp(tmp / "r" / "system.png");
  REQUIRE(system.size() > 64 * 1024);
  // A 40-block file size limit (20 or 40 kB, as the shell counts blocks) cuts
  // system.png short; SIGXFSZ ignored, as a full disk's write(2) gnuplot sees EFBIG.
  const auto r = run_in(tmp.path(), "ulimit -f 40; trap '' XFSZ;", "plot " + (tmp / "r").string(), tmp);
  CHECK(r.exit_code == 1);
  CHECK(has(r.err, "system.png: gnuplot could not finish it"));
  CHECK(slurp(tmp / "r" / "system.png") == system);
  CHECK(slurp(tmp / "r" / "tps.png") == tps);
  for (const std::string& name : names_in(tmp / "r")) CHECK_FALSE(has(name, ".tmp."));
}

TEST_CASE("a run with no transaction, or none in a whole interval, keeps its CSVs and says why it has no plots") {
  TempDir tmp("plot-empty");
  write_text(tmp / "s.json", kSingle);
  SUBCASE("no transaction: a schedule of one every 1000 s") {
    const auto r = run_ckptsim(
        "run " + (tmp / "s.json").string() + " --quiet --set pgbench.rate=0.001 --out " + (tmp / "r").string(), tmp);
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "no plots drawn: no transaction completed in any interval"));
    // The warning names the user's --out, not the folder the run was staged in (r.tmp.PID).
    CHECK(has(r.err, "warning: " + (tmp / "r").string() + ": no plots drawn"));
    CHECK_FALSE(has(r.err, ".tmp."));
  }
  SUBCASE("a -t run that ends inside its first interval") {
    write_text(tmp / "t.json", R"({"hardware": {"ram": "1GB", "device": "nvme"}, "postgres": {"shared_buffers": "64MB"},
      "pgbench": {"scale": 10, "clients": 1, "transactions": 1}, "warmup": {"duration": "0s"}})");
    const auto r = run_ckptsim("run " + (tmp / "t.json").string() + " --quiet --out " + (tmp / "r").string(), tmp);
    CHECK(r.exit_code == 0);
    CHECK(has(r.err, "no plots drawn: progress.csv has no interval"));
  }
  CHECK(fs::exists(tmp / "r" / "progress.csv"));
  CHECK(fs::exists(tmp / "r" / "system.csv"));
  CHECK(fs::exists(tmp / "r" / "summary.json"));
  CHECK_FALSE(fs::exists(tmp / "r" / "tps.png"));
  CHECK_FALSE(fs::exists(tmp / "r" / "plot.gp"));
  // plot says the same, and is no error either.
  const auto again = run_ckptsim("plot " + (tmp / "r").string(), tmp);
  CHECK(again.exit_code == 0);
  CHECK(has(again.err, "no plots drawn"));
}

TEST_CASE("plot DIR writes nowhere outside DIR: grid.json's points are plain folder names, not links") {
  TempDir tmp("plot-escape");
  write_text(tmp / "s.json", kSingle);
  REQUIRE(
      run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "victim").string(), tmp).exit_code ==
      0);
  fs::remove(tmp / "victim" / "plot.gp");
  fs::create_directories(tmp / "g");
  for (const std::string& point : std::vector<std::string>{"../victim", (tmp / "victim").string(), "link"}) {
    CAPTURE(point);
    if (point == "link") fs::create_directory_symlink(tmp / "victim", tmp / "g" / "link");
    write_text(tmp / "g" / "grid.json", nlohmann::json{{"title", "t"}, {"points", {point}}}.dump());
    const auto r = run_ckptsim("plot " + (tmp / "g").string(), tmp);
    CHECK(r.exit_code == 2);
    CHECK(has(r.err, point == "link" ? "is a symbolic link" : "is not a folder name"));
    CHECK_FALSE(fs::exists(tmp / "victim" / "plot.gp"));
    CHECK_FALSE(fs::exists(tmp / "g" / "plot.gp"));
  }
}
