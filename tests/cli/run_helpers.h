// Helpers for the end-to-end tests: temp folders, running the binary, reading files.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace ckptsim::testing {

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A path in single quotes, for the command lines the tests run through the shell.
// GCC 12 warns -Wrestrict inside std::string's copy when a one-character
// literal is concatenated (GCC bug 105329, a false positive fixed in GCC 13).
#pragma GCC diagnostic push
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
inline std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }
#pragma GCC diagnostic pop

// A fresh folder under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("ckptsim-test-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string out;
  std::string err;
};

// Runs the ckptsim binary with `args` (already shell-quoted), capturing stdout
// and stderr; `wrapper` goes before it (e.g. "timeout 60", for a run that might hang).
inline CommandResult run_ckptsim(const std::string& args, const TempDir& tmp, const std::string& wrapper = "") {
  const auto out = tmp / "stdout.txt", err = tmp / "stderr.txt";
  const std::string command = (wrapper.empty() ? "" : wrapper + " ") + std::string(CKPTSIM_BINARY) + " " + args + " >" +
                              out.string() + " 2>" + err.string();
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// Every file under `dir` but perf.json (wall-clock figures), plots and the
// results index's pages (they show file sizes, perf.json's too), by relative path.
inline std::map<std::string, std::string> outputs(const std::filesystem::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension();
    if (entry.path().filename() == "perf.json" || ext == ".png" || ext == ".svg" || ext == ".gp" || ext == ".html")
      continue;
    files[std::filesystem::relative(entry.path(), dir).string()] = slurp(entry.path());
  }
  return files;
}

// A grid of four points of about a quarter of a wall-clock second each, with an aggregate log.
inline constexpr const char* kFourPointGrid = R"({
  "hardware": {"cpus": 2, "ram": "1GB", "device": "hdd-7200-sata"},
  "postgres": {"shared_buffers": "64MB", "checkpoint_timeout": "30s"},
  "pgbench": {"scale": 20, "clients": 2, "duration": "60s", "aggregate_interval": "5s"},
  "warmup": {"duration": "5s"},
  "grid": {"pgbench.clients": [1, 2], "postgres.checkpoint_sorting": [true, false]},
  "seed": 7
})";

}  // namespace ckptsim::testing
