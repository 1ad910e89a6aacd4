// An output folder holds one run's files: replaced as a whole, refused when it
// holds someone else's, resumed point by point, and never left half-written
// by a signal, a kill or --max-wall (cli/folder/run_folder.h, cli/folder/stop.h).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/folder/run_files.h"
#include "tests/cli/run_helpers.h"

extern char** environ;

using namespace ckptsim::testing;
namespace fs = std::filesystem;

namespace {

const char* kSingle = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
  "postgres": {"shared_buffers": "64MB"},
  "pgbench": {"scale": 10, "clients": 2, "duration": "20s"},
  "seed": 3
})";

nlohmann::json summary_of(const fs::path& dir) { return nlohmann::json::parse(slurp(dir / "summary.json")); }

int progress_rows(const fs::path& dir) {
  const std::string csv = slurp(dir / "progress.csv");
  return static_cast<int>(std::count(csv.begin(), csv.end(), '\n')) - 1;
}

// The run's --aggregate-interval logs: pgbench_log.PID and pgbench_log.PID.N.
std::vector<std::string> aggregate_logs_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (ckptsim::cli::run_files::is_aggregate_log(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> temporaries_under(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (ckptsim::cli::run_files::is_temporary_name(entry.path().filename().string()))
      found.push_back(entry.path().string());
  return found;
}

// Starts ckptsim with its output thrown away; returns the child's pid.
pid_t spawn_ckptsim(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  std::string binary = CKPTSIM_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copies = args;
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  REQUIRE(rc == 0);
  return pid;
}

// The child's exit code, or 128 + the signal that killed it.
int wait_for(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The wall-clock milliseconds an uninterrupted, successful run of `args` takes on this machine now.
double wall_ms_of(const std::string& args, const TempDir& tmp) {
  const auto started = std::chrono::steady_clock::now();
  REQUIRE(run_ckptsim(args, tmp).exit_code == 0);
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

TEST_CASE("a rerun into a folder replaces the earlier run's files as a whole") {
  TempDir tmp("folder-replace");
  write_text(tmp / "s.json", kSingle);
  const std::string run = "run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "r").string();
  REQUIRE(run_ckptsim(run + " --set pgbench.aggregate_interval=5s", tmp).exit_code == 0);
  REQUIRE(aggregate_logs_in(tmp / "r").size() == 1);  // two clients on one thread
  write_text(tmp / "r" / "progress.csv.tmp.99999.7", "left by a killed run");

  REQUIRE(run_ckptsim(run + " --set pgbench.duration=5s", tmp).exit_code == 0);
  CHECK(aggregate_logs_in(tmp / "r").empty());  // the first run's, so gone
  CHECK_FALSE(fs::exists(tmp / "r" / "progress.csv.tmp.99999.7"));
  CHECK(progress_rows(tmp / "r") == 5);
  CHECK(summary_of(tmp / "r")["pgbench"]["duration_s"] == 5.0);

  SUBCASE("a single run into an earlier grid's folder leaves no point folder") {
    write_text(tmp / "g.json", kFourPointGrid);
    const std::string grid =
        "run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=5s --out " + (tmp / "r").string();
    REQUIRE(run_ckptsim(grid, tmp).exit_code == 0);
    REQUIRE(fs::exists(tmp / "r" / "summary.csv"));
    REQUIRE(run_ckptsim(run, tmp).exit_code == 0);
    CHECK_FALSE(fs::exists(tmp / "r" / "summary.csv"));
    CHECK_FALSE(fs::exists(tmp / "r" / "clients=1,checkpoint_sorting=true"));
  }
}

TEST_CASE("a rerun killed with SIGKILL leaves the earlier complete run as it was, and the next rerun replaces it") {
  TempDir tmp("folder-rerun-kill");
  write_text(tmp / "s.json", kSingle);
  const std::string scenario = (tmp / "s.json").string(), out = (tmp / "r").string();
  REQUIRE(run_ckptsim("run " + scenario + " --quiet --out " + out, tmp).exit_code == 0);
  const auto before = outputs(tmp / "r");
  REQUIRE(summary_of(tmp / "r")["complete"] == true);

  const pid_t pid = spawn_ckptsim({"run", scenario, "--quiet", "--set", "pgbench.duration=100000s", "--out", out});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(pid, SIGKILL);
  REQUIRE(wait_for(pid) == 128 + SIGKILL);
  auto after = outputs(tmp / "r");
  CHECK(after.erase(".ckptsim.lock") == 1);  // the killed run's lock: stale, taken over by the next run
  CHECK(after == before);                    // every file of the earlier run, unchanged
  CHECK(temporaries_under(tmp / "r").empty());

  REQUIRE(run_ckptsim("run " + scenario + " --quiet --set pgbench.duration=5s --out " + out, tmp).exit_code == 0);
  CHECK(summary_of(tmp / "r")["pgbench"]["duration_s"] == 5.0);
  CHECK_FALSE(fs::exists(tmp / ("r.tmp." + std::to_string(pid))));  // the killed run's staging folder, removed
}

TEST_CASE("a rerun whose earlier files cannot be removed puts its own whole set in place and warns") {
  TempDir tmp("folder-immutable");
  write_text(tmp / "s.json", kSingle);
  const std::string run = "run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "r").string();
  REQUIRE(run_ckptsim(run, tmp).exit_code == 0);
  const fs::path pinned = tmp / "r" / "summary.json";
  if (std::system(("chattr +i " + quoted(pinned) + " 2>/dev/null").c_str()) != 0) {
    MESSAGE("chattr +i is not available here: skipped");
    return;
  }
  const auto r = run_ckptsim(run + " --set pgbench.duration=5s", tmp);
  std::vector<fs::path> aside;
  for (const auto& entry : fs::directory_iterator(tmp.path()))
    if (entry.path().filename().string().starts_with("r.tmp.")) aside.push_back(entry.path());
  for (const fs::path& dir : aside) std::system(("chattr -i " + quoted(dir / "summary.json")).c_str());
  std::system(("chattr -i " + quoted(pinned) + " 2>/dev/null").c_str());
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("could not all be removed") != std::string::npos);
  const auto summary = summary_of(tmp / "r");
  CHECK(summary["complete"] == true);
  CHECK(summary["pgbench"]["duration_s"] == 5.0);
  CHECK(progress_rows(tmp / "r") == 5);  // the new run's CSVs beside the new summary, not the old ones
  CHECK(aside.size() == 1);              // the earlier set, moved aside whole
}

TEST_CASE("the default output folder is refused to a scenario file of the same name from elsewhere") {
  TempDir tmp("folder-default-other");
  fs::create_directories(tmp / "A");
  fs::create_directories(tmp / "B");
  write_text(tmp / "A" / "test.json", kSingle);
  write_text(tmp / "B" / "test.json", kSingle);
  // Without --out, run writes into out/test under the working folder.
  const auto run_in_tmp = [&](const std::string& scenario) {
    const std::string command = "cd " + quoted(tmp.path()) + " && " + CKPTSIM_BINARY + " run " + scenario +
                                " --quiet --set pgbench.duration=5s 2>" + quoted(tmp / "err.txt");
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  REQUIRE(run_in_tmp("A/test.json") == 0);
  const std::string before = slurp(tmp / "out" / "test" / "summary.json");

  CHECK(run_in_tmp("B/test.json") == 2);
  const std::string err = slurp(tmp / "err.txt");
  CHECK(err.find((tmp / "A" / "test.json").string()) != std::string::npos);  // the file it came from
  CHECK(err.find("--out") != std::string::npos);
  CHECK(slurp(tmp / "out" / "test" / "summary.json") == before);  // A's results, untouched

  CHECK(run_in_tmp("./A/../A/test.json") == 0);  // the same file, however named
  // Recorded as a path from the output folder: no absolute path, and the same wherever the tree is copied.
  CHECK(nlohmann::json::parse(slurp(tmp / "out" / "test" / "run.json"))["scenario_file"] == "../../A/test.json");
  const fs::path copy = tmp / "copied";
  fs::create_directories(copy);
  for (const std::string part : {"A", "B", "out"}) fs::copy(tmp / part, copy / part, fs::copy_options::recursive);
  fs::remove_all(copy / "out" / "test" / ".ckptsim.lock");
  const auto rerun = run_ckptsim("run A/test.json -q --set pgbench.duration=5s", tmp, "cd " + quoted(copy) + " &&");
  CHECK(rerun.exit_code == 0);  // the copy's own file: accepted
  const auto other = run_ckptsim("run B/test.json -q --set pgbench.duration=5s", tmp, "cd " + quoted(copy) + " &&");
  CHECK(other.exit_code == 2);
  CHECK(other.err.find((copy / "A" / "test.json").string() + " (run.json names it)") != std::string::npos);
  // A record of an earlier release, with the absolute path, is still compared as a path.
  write_text(copy / "out" / "test" / "run.json",
             nlohmann::json{{"ckptsim_version", "0"}, {"scenario_file", (copy / "B" / "test.json").string()}}.dump());
  CHECK(run_ckptsim("run A/test.json -q --set pgbench.duration=5s", tmp, "cd " + quoted(copy) + " &&").exit_code == 2);
}

TEST_CASE("a run into a folder whose parent is not writable is refused before it starts, naming the folder") {
  // Root passes every permission check: the run then drops to nobody (setpriv), or the case is skipped.
  const bool root = ::geteuid() == 0;
  if (root && std::system("setpriv --version >/dev/null 2>&1") != 0) return;
  TempDir tmp("folder-parent-readonly");
  write_text(tmp / "s.json", kSingle);
  const fs::path parent = tmp / "parent", dir = parent / "mine";
  fs::create_directories(dir);
  write_text(tmp / "s.json", kSingle);
  if (root) {
    REQUIRE(::chown(dir.c_str(), 65534, 65534) == 0);  // the run's own folder is writable, its parent is not
  } else {
    fs::permissions(parent, fs::perms::owner_read | fs::perms::owner_exec);
  }
  const auto ran = run_ckptsim("run " + quoted(tmp / "s.json") + " -q --set pgbench.duration=5s --out " + quoted(dir),
                               tmp, root ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : "");
  fs::permissions(parent, fs::perms::owner_all);
  CHECK(ran.exit_code == 2);
  CHECK(ran.err.find(dir.string() + ": the run is written beside it, in mine.tmp.") != std::string::npos);
  CHECK(ran.err.find("but " + parent.string() + " is not writable") != std::string::npos);
  CHECK(ran.err.find("--out " + (dir / "run").string()) != std::string::npos);
  CHECK(fs::is_empty(dir));  // nothing ran: no file of a run, the lock released
}

TEST_CASE("a folder holding files that ckptsim did not write is refused and left alone") {
  TempDir tmp("folder-refuse");
  write_text(tmp / "s.json", kSingle);
  fs::create_directories(tmp / "r" / "mine");
  write_text(tmp / "r" / "mine" / "data.bin", "the user's");
  write_text(tmp / "r" / "notes.txt", "keep me");
  const auto result = run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "r").string(), tmp);
  CHECK(result.exit_code == 2);
  CHECK(result.err.find("\"mine\", \"notes.txt\" that ckptsim did not write") != std::string::npos);
  CHECK(slurp(tmp / "r" / "notes.txt") == "keep me");
  CHECK_FALSE(fs::exists(tmp / "r" / "summary.json"));
}

TEST_CASE("ckptsim's file names in a folder without a ckptsim record are the user's: the run is refused") {
  TempDir tmp("folder-names");
  write_text(tmp / "s.json", kSingle);
  const fs::path d = tmp / "d";
  fs::create_directories(d);
  std::string first;
  SUBCASE("a real pgbench -P log") {
    write_text(d / "pgbench.log", "progress: 1.0 s, 612.0 tps, lat 6.5 ms stddev 2.1\n");
    first = "pgbench.log";
  }
  SUBCASE("a real aggregate log") {
    write_text(d / "pgbench_log.4711", "1441706400 612 3900000 25000000 4000 9000\n");
    first = "pgbench_log.4711";
  }
  SUBCASE("an index.html that ckptsim index did not write") {
    write_text(d / "index.html", "<html>mine</html>\n");
    first = "index.html";
  }
  SUBCASE("an empty subfolder") {
    fs::create_directories(d / "empty");
    first = "empty";
  }
  SUBCASE("a grid's point folder replaced by a symbolic link") {
    write_text(tmp / "g.json", kFourPointGrid);
    REQUIRE(
        run_ckptsim("run " + (tmp / "g.json").string() + " --quiet --set pgbench.duration=3s --out " + d.string(), tmp)
            .exit_code == 0);
    fs::create_directories(tmp / "elsewhere");
    write_text(tmp / "elsewhere" / "keep.txt", "keep");
    fs::remove_all(d / "clients=1,checkpoint_sorting=true");
    fs::create_directory_symlink(tmp / "elsewhere", d / "clients=1,checkpoint_sorting=true");
    first = "clients=1,checkpoint_sorting=true";
  }
  const auto before = outputs(d);
  const auto r = run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + d.string(), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(d.string() + ": holds \"" + first + "\"") != std::string::npos);
  CHECK(outputs(d) == before);
  CHECK(fs::exists(d / first));
  CHECK_FALSE(fs::exists(d / ".ckptsim.lock"));
  if (fs::exists(tmp / "elsewhere")) CHECK(slurp(tmp / "elsewhere" / "keep.txt") == "keep");
}

TEST_CASE("--out d/new/.. is d: checked as d, and nothing is created on the way") {
  TempDir tmp("folder-dotdot");
  write_text(tmp / "s.json", kSingle);
  fs::create_directories(tmp / "d");
  write_text(tmp / "d" / "notes.txt", "keep me");
  const auto r =
      run_ckptsim("run " + (tmp / "s.json").string() + " --quiet --out " + (tmp / "d" / "new" / "..").string(), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("holds \"notes.txt\" that ckptsim did not write") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp / "d" / "new"));
  CHECK_FALSE(fs::exists(tmp / "d" / "run.json"));
  CHECK(slurp(tmp / "d" / "notes.txt") == "keep me");
}

TEST_CASE("two runs into one folder: the second is refused with the first's pid; a dead run's lock is taken over") {
  TempDir tmp("folder-lock");
  write_text(tmp / "s.json", kSingle);
  const fs::path d = tmp / "d";
  const std::string second = "run " + (tmp / "s.json").string() + " --quiet --out " + d.string();
  const pid_t first = spawn_ckptsim(
      {"run", (tmp / "s.json").string(), "--quiet", "--set", "pgbench.duration=100000s", "--out", d.string()});
  for (int i = 0; i < 200 && !fs::exists(d / ".ckptsim.lock"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  REQUIRE(fs::exists(d / ".ckptsim.lock"));
  const auto refused = run_ckptsim(second, tmp);
  ::kill(first, SIGINT);
  CHECK(wait_for(first) == 128 + SIGINT);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err.find("another ckptsim run (pid " + std::to_string(first) + ")") != std::string::npos);
  CHECK_FALSE(fs::exists(d / ".ckptsim.lock"));  // released by the first as it stopped

  // A lock left by a run killed with SIGKILL names a pid that is gone: taken over.
  const pid_t gone = spawn_ckptsim({"--version"});
  REQUIRE(wait_for(gone) == 0);
  write_text(d / ".ckptsim.lock", std::to_string(gone) + "\n");
  CHECK(run_ckptsim(second, tmp).exit_code == 0);
  CHECK(summary_of(d)["complete"] == true);
  CHECK_FALSE(fs::exists(d / ".ckptsim.lock"));
}

TEST_CASE("every file a grid leaves is one that a rerun knows to replace") {
  TempDir tmp("folder-known");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string grid = "run " + (tmp / "g.json").string() + " --quiet --out " + (tmp / "g").string();
  REQUIRE(run_ckptsim(grid + " --set pgbench.duration=5s", tmp).exit_code == 0);
  // If any file were unknown, the rerun would refuse the folder as foreign.
  const auto again = run_ckptsim(grid + " --set pgbench.duration=4s", tmp);
  CHECK(again.exit_code == 0);
  CHECK(again.err == "");
  CHECK(progress_rows(tmp / "g" / "clients=2,checkpoint_sorting=false") == 4);
}

TEST_CASE("a killed run's image temporaries that appear after a rerun started are gone when it ends") {
  TempDir tmp("folder-late-temporary");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string scenario = (tmp / "g.json").string(), out = (tmp / "g").string();
  REQUIRE(run_ckptsim("run " + scenario + " --quiet --out " + out, tmp).exit_code == 0);
  const fs::path kept = tmp / "g" / "clients=1,checkpoint_sorting=true";
  fs::remove(tmp / "g" / "clients=2,checkpoint_sorting=false" / "summary.json");  // that point runs again

  // A pid that is surely gone: a child that has exited and been reaped.
  const pid_t dead = spawn_ckptsim({"--version"});
  wait_for(dead);
  const std::string late = "system.png.tmp." + std::to_string(dead),
                    grid_late = "stability.png.tmp." + std::to_string(dead);
  const pid_t pid = spawn_ckptsim({"run", scenario, "--quiet", "--out", out});
  // As a killed run's gnuplot does: it finishes its image after the rerun cleaned the folders.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  write_text(kept / late, "half an image");
  write_text(tmp / "g" / grid_late, "half an image");
  REQUIRE(wait_for(pid) == 0);
  CHECK_FALSE(fs::exists(kept / late));
  CHECK_FALSE(fs::exists(tmp / "g" / grid_late));
  CHECK(temporaries_under(tmp / "g").empty());
}

TEST_CASE("a grid resumes only the points whose recorded settings are the same") {
  TempDir tmp("folder-resume");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string grid =  // not --quiet: the kept points are reported on stderr
      "run " + (tmp / "g.json").string() + " --set pgbench.duration=5s --out " + (tmp / "g").string();
  REQUIRE(run_ckptsim(grid, tmp).exit_code == 0);
  const auto first = outputs(tmp / "g");

  const auto same = run_ckptsim(grid, tmp);
  CHECK(same.exit_code == 0);
  CHECK(same.err.find("kept 4 of 4 points") != std::string::npos);
  CHECK(outputs(tmp / "g") == first);
  // The same settings from a scenario file elsewhere: the points are kept (a resume compares settings).
  fs::create_directories(tmp / "moved");
  fs::copy_file(tmp / "g.json", tmp / "moved" / "g.json");
  const auto moved = run_ckptsim(
      "run " + (tmp / "moved" / "g.json").string() + " --set pgbench.duration=5s --out " + (tmp / "g").string(), tmp);
  CHECK(moved.err.find("kept 4 of 4 points") != std::string::npos);
  CHECK(run_ckptsim(grid, tmp).err.find("kept 4 of 4 points") != std::string::npos);

  // A point whose summary.json was lost, or whose run.json says otherwise, runs again.
  fs::remove(tmp / "g" / "clients=1,checkpoint_sorting=false" / "summary.json");
  write_text(tmp / "g" / "clients=2,checkpoint_sorting=true" / "run.json", "{}\n");
  const auto two = run_ckptsim(grid, tmp);
  CHECK(two.err.find("kept 2 of 4 points") != std::string::npos);
  CHECK(outputs(tmp / "g") == first);

  // Another threshold changes every summary's stability figures: nothing is kept.
  const auto other = run_ckptsim(grid + " --threshold 50", tmp);
  CHECK(other.err.find("kept") == std::string::npos);
  CHECK(summary_of(tmp / "g" / "clients=1,checkpoint_sorting=true")["stability"]["threshold"] == 50.0);
}

TEST_CASE("a grid rerun with other settings, killed partway, never leaves the earlier grid's table beside new points") {
  TempDir tmp("folder-grid-set");
  write_text(tmp / "g.json", kFourPointGrid);
  const fs::path g = tmp / "g";
  REQUIRE(run_ckptsim("run " + quoted(tmp / "g.json") + " -q --set pgbench.duration=20s --out " + quoted(g), tmp)
              .exit_code == 0);
  REQUIRE(run_ckptsim("index " + quoted(g), tmp).exit_code == 0);
  const auto first = outputs(g);
  const std::vector<std::string> grid_files = {"summary.csv",   "report.txt",      "grid.json",
                                               "stability.png", "tps-overlay.png", "index.html"};
  for (const std::string& name : grid_files) REQUIRE(fs::exists(g / name));

  // Every point changes (scale 30); killed with SIGKILL once the first new point is in place.
  const std::vector<std::string> rerun = {
      "run",   (tmp / "g.json").string(), "--quiet", "--jobs",  "1", "--set", "pgbench.scale=30",
      "--set", "pgbench.duration=20s",    "--out",   g.string()};
  const auto new_points = [&] {
    int n = 0;
    for (const auto& entry : fs::directory_iterator(g)) {
      if (!entry.is_directory() || !fs::exists(entry.path() / "run.json") ||
          ckptsim::cli::run_files::is_temporary_name(entry.path().filename().string()))
        continue;  // a point being staged is not in place yet
      n += nlohmann::json::parse(slurp(entry.path() / "run.json"))["settings"]["pgbench"]["scale"] == 30;
    }
    return n;
  };
  const pid_t pid = spawn_ckptsim(rerun);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (new_points() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ::kill(pid, SIGKILL);
  wait_for(pid);
  const int fresh = new_points();
  CHECK(fresh >= 1);
  CHECK(fresh < 4);  // a mix of earlier and new points...
  for (const std::string& name : grid_files) {
    CAPTURE(name);
    CHECK_FALSE(fs::exists(g / name));  // ...and no grid-level file of the earlier set beside them
  }
  CHECK_FALSE(fs::exists(g / "_index"));

  // The same command resumes: the new points are kept, and the grid's new set is written whole.
  const std::string command = "run " + quoted(tmp / "g.json") +
                              " --jobs 1 --set pgbench.scale=30 --set pgbench.duration=20s --out " + quoted(g);
  const auto resumed = run_ckptsim(command, tmp);
  CHECK(resumed.exit_code == 0);
  CHECK(resumed.err.find(fmt::format("kept {} of 4 points", fresh)) != std::string::npos);
  CHECK(new_points() == 4);
  for (const std::string& name : grid_files) {
    if (name != "index.html") CHECK(fs::exists(g / name));
  }
  CHECK(outputs(g).at("summary.csv") != first.at("summary.csv"));

  // A resume of a whole grid keeps its set as it is: nothing of it is removed or changed.
  const auto whole = outputs(g);
  CHECK(run_ckptsim(command + " -q", tmp).exit_code == 0);
  CHECK(outputs(g) == whole);
}

TEST_CASE("--max-wall and SIGINT stop a run after whole intervals and mark it partial") {
  TempDir tmp("folder-stop");
  write_text(tmp / "s.json", kSingle);
  const std::string base = (tmp / "s.json").string();
  // Stop later than an uninterrupted 20 s run takes on this machine, however loaded, so
  // that whole intervals have been simulated when the stop lands.
  const double stop_ms =
      std::max(500.0, 1.5 * wall_ms_of("run " + base + " --quiet --out " + (tmp / "ref").string(), tmp));

  SUBCASE("--max-wall") {
    const auto r = run_ckptsim("run " + base + " --quiet --set pgbench.duration=100000s --max-wall " +
                                   std::to_string(stop_ms / 1000.0) + " --out " + (tmp / "r").string(),
                               tmp);
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("stopped by --max-wall") != std::string::npos);
  }
  for (const int signal : {SIGINT, SIGTERM}) {
    SUBCASE(signal == SIGINT ? "SIGINT" : "SIGTERM") {
      const pid_t pid =
          spawn_ckptsim({"run", base, "--quiet", "--set", "pgbench.duration=100000s", "--out", (tmp / "r").string()});
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(stop_ms));
      ::kill(pid, signal);
      CHECK(wait_for(pid) == 128 + signal);
    }
  }
  const auto summary = summary_of(tmp / "r");
  CHECK(summary["complete"] == false);
  const int rows = progress_rows(tmp / "r");
  CHECK(rows > 0);
  CHECK(rows < 100000);
  CHECK(summary["pgbench"]["duration_s"] == doctest::Approx(rows));  // whole 1 s intervals only
  CHECK(temporaries_under(tmp / "r").empty());
  // The plots of what it committed, as `ckptsim plot` would draw them (when gnuplot is there to draw).
  CHECK(fs::exists(tmp / "r" / "tps.png") == fs::exists(tmp / "ref" / "tps.png"));
  CHECK(fs::exists(tmp / "r" / "system.png") == fs::exists(tmp / "ref" / "system.png"));
}

// A scale-20000 database (300 GB) takes its setup, building the tables and
// replaying pgbench -i into the page cache, well over ten seconds of wall clock
// before the measured run; a stop must not wait for it.
const std::string kHugeSetup = " --quiet --set pgbench.scale=20000 --set pgbench.duration=20s --set warmup.duration=0s";

TEST_CASE("--max-wall stops a run during its setup, within a second of the budget") {
  TempDir tmp("stop-setup");
  write_text(tmp / "s.json", kSingle);
  const auto started = std::chrono::steady_clock::now();
  const auto r =
      run_ckptsim("run " + (tmp / "s.json").string() + kHugeSetup + " --max-wall 2 --out " + (tmp / "r").string(), tmp);
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  CHECK(r.exit_code == 3);
  CHECK(wall_s >= 2.0);
  CHECK(wall_s < 6.0);  // 2 s, one 1 GB segment's work, the teardown and a loaded machine's slack
  const auto summary = summary_of(tmp / "r");
  CHECK(summary["complete"] == false);
  CHECK(summary["stopped_by"] == "stopped by --max-wall");
  CHECK(summary["stopped_during"] == "setup");
  CHECK_FALSE(fs::exists(tmp / "r" / "progress.csv"));
  CHECK(temporaries_under(tmp / "r").empty());
}

TEST_CASE("a run stopped during its warmup says so, has no stability figures, and the index marks it stopped") {
  TempDir tmp("stop-warmup");
  write_text(tmp / "s.json", kSingle);
  const pid_t pid = spawn_ckptsim(
      {"run", (tmp / "s.json").string(), "--quiet", "--set", "warmup.duration=100000s", "--out", (tmp / "r").string()});
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the setup of scale 10 takes far less
  ::kill(pid, SIGINT);
  CHECK(wait_for(pid) == 128 + SIGINT);
  const auto summary = summary_of(tmp / "r");
  CHECK(summary["complete"] == false);
  CHECK(summary["stopped_by"] == "interrupted (SIGINT)");
  CHECK(summary["stopped_during"] == "warmup");
  CHECK(summary["stability"].is_null());
  CHECK_FALSE(fs::exists(tmp / "r" / "progress.csv"));
  CHECK(temporaries_under(tmp / "r").empty());
  const std::string index = slurp(tmp / "r" / "index.html");
  CHECK(index.find("stopped") != std::string::npos);
  CHECK(index.find("<td>stopped</td>") != std::string::npos);
  // The row's first figure (mean tps) is blank, not 0.0: the run measured nothing.
  CHECK(index.find("run.html\">.</a></td><td></td>") != std::string::npos);
}

TEST_CASE("SIGHUP stops a run as SIGTERM does, during the setup too: exit code 143") {
  TempDir tmp("stop-hup");
  write_text(tmp / "s.json", kSingle);
  const pid_t pid = spawn_ckptsim({"run", (tmp / "s.json").string(), "--quiet", "--set", "pgbench.scale=20000", "--set",
                                   "pgbench.duration=20s", "--out", (tmp / "r").string()});
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, SIGHUP);
  CHECK(wait_for(pid) == 128 + SIGTERM);
  CHECK(std::chrono::steady_clock::now() - sent < std::chrono::seconds(4));
  const auto summary = summary_of(tmp / "r");
  CHECK(summary["complete"] == false);
  CHECK(summary["stopped_by"] == "hung up (SIGHUP)");
}

TEST_CASE("a grid killed at random moments, then rerun, gives an uninterrupted run's files") {
  TempDir tmp("folder-kill");
  write_text(tmp / "g.json", kFourPointGrid);
  const std::string scenario = (tmp / "g.json").string();
  const double wall_ms = wall_ms_of("run " + scenario + " --quiet --jobs 2 --out " + (tmp / "ref").string(), tmp);
  const auto reference = outputs(tmp / "ref");

  // Kill moments spread over the first 60% of an uninterrupted run, however fast this machine is.
  std::mt19937 random(20261203);
  std::uniform_real_distribution<double> delay_ms(0.02 * wall_ms, 0.6 * wall_ms);
  int interrupted = 0;
  for (int trial = 0; trial < 6; ++trial) {
    const int signal = trial % 2 == 0 ? SIGKILL : SIGINT;
    const pid_t pid = spawn_ckptsim({"run", scenario, "--quiet", "--jobs", "2", "--out", (tmp / "g").string()});
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(delay_ms(random)));
    ::kill(pid, signal);
    const int code = wait_for(pid);
    CAPTURE(trial);
    CHECK((code == 128 + signal || code == 0));  // 0: it finished first
    interrupted += code != 0;
    // Whatever a point folder claims to be complete is exactly the reference's. A kill that
    // lands before the grid folder exists leaves nothing to compare.
    if (!fs::exists(tmp / "g")) continue;
    for (const auto& entry : fs::directory_iterator(tmp / "g")) {
      if (!entry.is_directory() || !fs::exists(entry.path() / "summary.json")) continue;
      if (ckptsim::cli::run_files::is_temporary_name(entry.path().filename().string())) continue;  // staged
      if (summary_of(entry.path())["complete"] != true) continue;
      const std::string point = entry.path().filename().string();
      std::vector<std::string> files = {"summary.json", "progress.csv", "system.csv"};
      for (const std::string& log : aggregate_logs_in(tmp / "ref" / point)) files.push_back(log);
      REQUIRE(files.size() == 4);
      for (const std::string& file : files) {
        CAPTURE(point);
        CAPTURE(file);
        CHECK(slurp(entry.path() / file) == reference.at(point + "/" + file));
      }
    }
    if (code == 0) fs::remove_all(tmp / "g");  // the next kill meets a fresh run, not a finished grid
  }
  CHECK(interrupted >= 2);  // the kills mostly landed mid-run, so the test tests something
  const auto rerun = run_ckptsim("run " + scenario + " --quiet --jobs 2 --out " + (tmp / "g").string(), tmp);
  REQUIRE(rerun.exit_code == 0);
  CHECK(outputs(tmp / "g") == reference);
  CHECK(temporaries_under(tmp / "g").empty());
  CHECK(fs::exists(tmp / "g" / "tps-grid.png") == fs::exists(tmp / "ref" / "tps-grid.png"));
}

TEST_CASE(
    "SIGTERM during `ckptsim index` of a large tree stops it at once: exit 143, the old index.html, no temporary") {
  TempDir tmp("index-sigterm");
  write_text(tmp / "s.json", kSingle);
  const fs::path tree = tmp / "tree";
  REQUIRE(
      run_ckptsim("run " + quoted(tmp / "s.json") + " -q --set pgbench.duration=5s --out " + quoted(tree / "r0"), tmp)
          .exit_code == 0);
  REQUIRE(run_ckptsim("index " + quoted(tree), tmp).exit_code == 0);
  const std::string before = slurp(tree / "index.html");
  // Many runs (their records and series only): writing their pages takes seconds, index.html comes last.
  constexpr int kRuns = 400;
  for (int i = 1; i <= kRuns; ++i) {
    std::string name = "r";
    name += std::to_string(i);
    const fs::path run = tree / name;
    fs::create_directories(run);
    for (const char* file : {"run.json", "summary.json", "progress.csv"}) fs::copy_file(tree / "r0" / file, run / file);
  }
  const pid_t pid = spawn_ckptsim({"index", tree.string()});
  // Once its pages are being written (r1's comes first of the new ones), the signal.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(tree / "_index" / "r1" / "run.html") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ::kill(pid, SIGTERM);
  const auto signalled = std::chrono::steady_clock::now();
  CHECK(wait_for(pid) == 128 + SIGTERM);
  CHECK(std::chrono::steady_clock::now() - signalled < std::chrono::seconds(2));
  CHECK_FALSE(fs::exists(tree / "_index" / "r99" / "run.html"));  // it stopped partway: the later pages unwritten
  CHECK(slurp(tree / "index.html") == before);                    // the earlier index page, whole
  std::vector<std::string> left;
  for (const auto& entry : fs::recursive_directory_iterator(tree)) {
    const std::string name = entry.path().filename().string();
    if (ckptsim::cli::run_files::is_temporary_name(name) || name == ".ckptsim.lock") left.push_back(name);
  }
  CHECK(left.empty());  // no half-written page, no lock held
}

TEST_CASE("a user's file or folder named like a temporary (draft.tmp.1, thesis.tmp.5) is never removed: the folder is refused") {
  TempDir tmp("user-temporaries");
  write_text(tmp / "s.json", kSingle);
  const std::string run = "run " + quoted(tmp / "s.json") + " --quiet --set pgbench.duration=2s --out " + quoted(tmp / "r");
  REQUIRE(run_ckptsim(run, tmp).exit_code == 0);
  // pid 1 is always alive; 4194303 (the largest pid_max) is, in practice, never.
  for (const std::string pid : {"1", "4194303"}) {
    CAPTURE(pid);
    fs::create_directories(tmp / "r" / ("thesis.tmp." + pid));
    write_text(tmp / "r" / ("thesis.tmp." + pid) / "ch1.tex", "chapter one");
    write_text(tmp / "r" / ("draft.tmp." + pid), "my draft");
    const auto again = run_ckptsim(run, tmp);
    CHECK(again.exit_code == 2);
    CHECK(again.err.find("that ckptsim did not write") != std::string::npos);
    CHECK(slurp(tmp / "r" / ("thesis.tmp." + pid) / "ch1.tex") == "chapter one");
    CHECK(slurp(tmp / "r" / ("draft.tmp." + pid)) == "my draft");
    fs::remove_all(tmp / "r" / ("thesis.tmp." + pid));
    fs::remove(tmp / "r" / ("draft.tmp." + pid));
  }
  // What a dead run of ckptsim's own left is still cleared: a summary.json temporary.
  write_text(tmp / "r" / "summary.json.tmp.4194303.1", "half");
  CHECK(run_ckptsim(run, tmp).exit_code == 0);
  CHECK_FALSE(fs::exists(tmp / "r" / "summary.json.tmp.4194303.1"));
}

TEST_CASE("a rerun stopped by SIGINT or --max-wall keeps the earlier complete run, the stopped one beside it") {
  TempDir tmp("stop-rerun");
  write_text(tmp / "s.json", kSingle);
  const std::string base = (tmp / "s.json").string();
  const fs::path r = tmp / "r";
  REQUIRE(run_ckptsim("run " + base + " --quiet --out " + r.string(), tmp).exit_code == 0);
  const std::string complete = slurp(r / "progress.csv");
  for (const int signal : {SIGINT, 0}) {
    CAPTURE(signal);
    if (signal != 0) {
      const pid_t pid = spawn_ckptsim({"run", base, "--quiet", "--set", "pgbench.duration=100000s", "--out", r.string()});
      std::this_thread::sleep_for(std::chrono::milliseconds(1500));
      ::kill(pid, signal);
      CHECK(wait_for(pid) == 128 + signal);
    } else {  // a second stopped rerun replaces the first stopped one
      const auto stopped = run_ckptsim(
          "run " + base + " --set pgbench.duration=100000s --max-wall 1.5 --out " + r.string(), tmp);
      CHECK(stopped.exit_code == 3);
      CHECK(stopped.err.find("keeps its complete run; the stopped run is in") != std::string::npos);
    }
    CHECK(summary_of(r)["complete"] == true);
    CHECK(slurp(r / "progress.csv") == complete);
    CHECK(summary_of(tmp / "r.stopped")["complete"] == false);
    CHECK(temporaries_under(tmp.path()).empty());
  }
  // A folder of the user's named r.stopped is never replaced: the stopped run is dropped.
  fs::remove_all(tmp / "r.stopped");
  fs::create_directories(tmp / "r.stopped");
  write_text(tmp / "r.stopped" / "notes.txt", "mine");
  const auto kept = run_ckptsim("run " + base + " --set pgbench.duration=100000s --max-wall 1.5 --out " + r.string(), tmp);
  CHECK(kept.exit_code == 3);
  CHECK(slurp(tmp / "r.stopped" / "notes.txt") == "mine");
  CHECK(summary_of(r)["complete"] == true);
}

TEST_CASE("report and validate refuse a folder of the user's files in their own words, not run's --out advice") {
  TempDir tmp("report-foreign");
  write_text(tmp / "g.json", R"({
    "hardware": {"cpus": 2, "ram": "1GB", "device": "nvme"},
    "postgres": {"shared_buffers": "64MB"},
    "pgbench": {"scale": 5, "clients": 1, "duration": "2s"},
    "grid": {"pgbench.clients": [1, 2]}, "seed": 3})");
  REQUIRE(run_ckptsim("run " + quoted(tmp / "g.json") + " --quiet --out " + quoted(tmp / "g"), tmp).exit_code == 0);
  write_text(tmp / "g" / "notes.txt", "mine");
  const auto r = run_ckptsim("report " + quoted(tmp / "g"), tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("holds \"notes.txt\" that ckptsim did not write; report rewrites the grid's files only") !=
        std::string::npos);
  CHECK(r.err.find("--out") == std::string::npos);  // report has no --out
  CHECK(slurp(tmp / "g" / "notes.txt") == "mine");
}
