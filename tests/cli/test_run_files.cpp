// tests/cli/test_run_files.cpp: the run folder's names have one owner
// (cli/folder/run_files.h), and cli/'s folders include downward only.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "cli/folder/run_files.h"

namespace fs = std::filesystem;
using namespace ckptsim::cli::run_files;

namespace {

const fs::path kSource = CKPTSIM_SOURCE_DIR;

std::string fmt_place(const fs::path& file, int line) {
  return file.lexically_relative(kSource).generic_string() + ":" + std::to_string(line);
}

// The lines of every source and asset file under `folder`, as (file:line, text).
std::vector<std::pair<std::string, std::string>> source_lines(const fs::path& folder) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / folder)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".h" && ext != ".cpp" && ext != ".js" && ext != ".css") continue;
    std::ifstream in(entry.path());
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) lines.emplace_back(fmt_place(entry.path(), n), text);
  }
  return lines;
}

}  // namespace

TEST_CASE("pgbench's aggregate log names: pgbench_log.PID for thread 0, pgbench_log.PID.N for thread N") {
  CHECK(aggregate_log_name(4711, 0) == "pgbench_log.4711");
  CHECK(aggregate_log_name(4711, 3) == "pgbench_log.4711.3");
  CHECK(is_aggregate_log(aggregate_log_name(4711, 0)));
  CHECK(is_aggregate_log(aggregate_log_name(4711, 3)));
  CHECK_FALSE(is_aggregate_log("pgbench_log."));
  CHECK_FALSE(is_aggregate_log("pgbench_log.x"));
  CHECK_FALSE(is_aggregate_log("pgbench_log.1.2.3"));
  CHECK_FALSE(is_aggregate_log("my_pgbench_log.1"));
}

TEST_CASE("a temporary name is the file's name, .tmp and the writer's pid (and AtomicFile's counter)") {
  CHECK(temporary_name(".ckptsim.lock", 42) == ".ckptsim.lock.tmp.42");
  CHECK(is_temporary_name(temporary_name("summary.json", 42)));
  CHECK(is_temporary_name("summary.json.tmp.42.7"));
  CHECK_FALSE(is_temporary_name("summary.json"));
  CHECK_FALSE(is_temporary_name(".tmp.42"));
}

TEST_CASE("what a complete run always has is a point file, and the grid's files are not") {
  for (const std::string& name : always_written()) {
    CAPTURE(name);
    CHECK(is_point_file(name));
  }
  CHECK(always_written().size() == 10);
  CHECK(is_grid_file("summary.csv"));
  CHECK(is_grid_file("summary-mean.csv"));
  CHECK(is_grid_file("index.html"));
  CHECK_FALSE(is_point_file("summary.csv"));
  CHECK_FALSE(is_grid_file("progress.csv"));
}

TEST_CASE("no string in cli/ or analysis/ but run_files.h spells a run folder's file name") {
  const std::regex literal(R"("(?:[^"\\]|\\.)*")");
  const std::vector<std::string> names = {
      "run.json",        "progress.csv", "system.csv",    "waits.csv",     "io_layers.csv", "checkpoints.csv",
      "postgres.log",    "pgbench.log",  "summary.json",  "perf.json",     "crash.json",    "tps.png",
      "tps.svg",         "system.png",   "grid.json",     "summary.csv",   "report.txt",    "tps-overlay.png",
      "tps-overlay.svg", "tps-grid.png", "stability.png", "plot.gp",       "index.html",    "_index",
      "compare.html",    "run.html",     "grid.html",     ".ckptsim.lock", "pgbench_log.",  "summary-mean.csv"};
  std::string spelled;  // one line per place, so that a failure names them
  for (const fs::path folder : {"cli", "analysis"}) {
    for (const auto& [place, text] : source_lines(folder)) {
      if (place.starts_with("cli/folder/run_files.h:") || text.starts_with("#include")) continue;
      const std::string code = text.substr(0, text.find("//"));  // comments may name them
      for (auto it = std::sregex_iterator(code.begin(), code.end(), literal); it != std::sregex_iterator(); ++it) {
        for (const std::string& name : names) {
          if (it->str().find(name) != std::string::npos) spelled += place + ": " + name + "\n";
        }
      }
      // The assets are not C++: any mention counts.
      if (place.find("/assets/") != std::string::npos) {
        for (const std::string& name : names) {
          if (text.find(name) != std::string::npos) spelled += place + ": " + name + "\n";
        }
      }
    }
  }
  CHECK(spelled == "");
}

// From the top: cli/main.cpp -> cli/commands/ -> cli/run/ -> cli/pages/, cli/calibrate/, cli/report/, cli/validate/ ->
// cli/host/, cli/folder/. A folder
// includes its own files and those of folders below it; folders of one rank do not include each other.
TEST_CASE(
    "cli/'s folders include downward only: commands/ -> run/ -> pages/, calibrate/, report/, validate/ -> host/, "
    "folder/") {
  const std::map<std::string, int> rank = {{"commands", 3}, {"run", 2},      {"pages", 1}, {"calibrate", 1},
                                           {"report", 1},   {"validate", 1}, {"host", 0},  {"folder", 0}};
  const std::regex include(R"re(#include "cli/([a-z_]+)/)re");
  std::string upward;
  for (const auto& [folder, level] : rank) {
    for (const auto& [place, text] : source_lines(fs::path("cli") / folder)) {
      std::smatch m;
      if (!std::regex_search(text, m, include) || m[1].str() == folder) continue;
      const auto to = rank.find(m[1].str());
      if (to == rank.end() || to->second >= level) upward += place + ": " + text + "\n";
    }
  }
  CHECK(upward == "");
}

TEST_CASE("every folder of cli/ is in the include order, and none holds more than 25 files") {
  const std::vector<std::string> ranked = {"commands", "run",  "pages",  "calibrate",
                                           "report",   "validate", "host", "folder"};
  for (const auto& entry : fs::directory_iterator(kSource / "cli")) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    CHECK(std::find(ranked.begin(), ranked.end(), name) != ranked.end());
    std::size_t files = 0;
    for (const auto& file : fs::directory_iterator(entry.path())) files += file.is_regular_file() ? 1 : 0;
    CHECK(files <= 25);
  }
}
