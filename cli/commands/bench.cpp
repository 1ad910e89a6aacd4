#include "cli/commands/bench.h"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <memory>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/regular_file.h"
#include "cli/commands/commands.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "models/pgbench/tables.h"
#include "scenarios/presets.h"

extern char** environ;

namespace ckptsim::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kMaxSummaryBytes = 64 << 20;

struct Figures {
  double wall_s = 0;
  double transactions = 0;
  double events = 0;
  double simulated_s = 0;
  double peak_rss_mb = 0;
  double database_pages = 0;  // the largest point's, for a grid
};

// Adds up the runs' summary.json files under `dir` (one for a run, one per point for a grid).
void read_summaries(const fs::path& dir, Figures& f) {
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().filename() != run_files::kSummaryJson || !entry.is_regular_file()) continue;
    const auto head = analysis::read_regular_file(entry.path(), kMaxSummaryBytes);
    if (!head || head->cut) throw std::runtime_error(fmt::format("{}: unreadable", entry.path().string()));
    const json s = json::parse(head->text);
    f.transactions += s.at("pgbench").at("transactions").get<double>();
    f.events += s.at("sim").at("events").get<double>();
    f.simulated_s += s.at("sim").at("simulated_seconds").get<double>();
    const auto scale = s.at("settings").at("pgbench").at("scale").get<std::int64_t>();
    f.database_pages = std::max(f.database_pages, static_cast<double>(pgbench::PgbenchTables::database_blocks(scale)));
  }
}

// Runs `ckptsim run` on the benchmark in a child process: its wall time, its
// own peak RSS, and the figures of what it simulated.
Figures run_benchmark(const Benchmark& b, const fs::path& out, bool quick) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> words = {
      self,    "run",        (scenarios::project_home() / "scenarios" / (b.scenario + ".json")).string(),
      "--out", out.string(), "--quiet"};
  words.insert(words.end(), b.extra_args.begin(), b.extra_args.end());
  if (quick) words.insert(words.end(), b.quick_args.begin(), b.quick_args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (const int err = posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ); err != 0)
    throw std::runtime_error(fmt::format("{}: cannot start {}: {}", b.name, self, std::strerror(err)));
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) throw std::runtime_error(fmt::format("{}: wait4: {}", b.name, std::strerror(errno)));
  }
  Figures f;
  f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("{}: `ckptsim run` exited with status {}", b.name, status));
  f.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in kB on Linux
  read_summaries(out, f);
  return f;
}

json figures_json(const Benchmark& b, const Figures& f) {
  const double wall = f.wall_s > 0 ? f.wall_s : 1e-9;
  return {{"name", b.name},
          {"tx_per_s", f.transactions / wall},
          {"events_per_s", f.events / wall},
          {"sim_s_per_wall_s", f.simulated_s / wall},
          {"peak_rss_mb", f.peak_rss_mb},
          {"bytes_per_page", f.database_pages > 0 ? f.peak_rss_mb * 1024 * 1024 / f.database_pages : 0.0},
          {"wall_s", f.wall_s}};
}

}  // namespace

const std::vector<Benchmark>& shipped_benchmarks() {
  const std::vector<std::string> quick = {"--set", "pgbench.duration=3s"};
  const std::vector<std::string> quick_grid = {"--set", "pgbench.duration=3s", "--set", "warmup.duration=3s"};
  static const std::vector<Benchmark> list = {
      {"select-only-in-memory",
       "bench/select-only-in-memory",
       {},
       quick,
       "select-only, the database inside shared buffers"},
      {"e1-small-sort-flush",
       "bench/e1-small-sort-flush",
       {},
       quick,
       "E1 small, 1 client, sort+flush, 4000 s, no warmup"},
      {"e1-small-warmup", "bench/e1-small-warmup", {}, quick, "E1 small's 1200 s select-only warmup alone"},
      {"tpcb-scale-1000",
       "bench/tpcb-scale-1000",
       {},
       quick,
       "tpcb-like at scale 1000, 16 GB host, 2 GB shared_buffers"},
      {"e1-grid", "e1-small-grid", {"--jobs", "2"}, quick_grid, "the shipped E1 small grid end to end on 2 threads"},
  };
  return list;
}

int command_bench(const BenchArgs& args) {
  std::vector<const Benchmark*> chosen;
  for (const Benchmark& b : shipped_benchmarks())
    if (b.name.find(args.filter) != std::string::npos) chosen.push_back(&b);
  if (chosen.empty()) {
    std::string names;
    for (const Benchmark& b : shipped_benchmarks()) names += (names.empty() ? "" : ", ") + b.name;
    std::cerr << "error: --filter " << printable(args.filter) << " matches no benchmark (expected part of one of "
              << names << ")\n";
    return 2;
  }
  const fs::path scratch = fs::temp_directory_path() / fmt::format("ckptsim-bench.{}", ::getpid());
  json results = json::array();
  int rc = 0;
  if (!args.json)
    std::cout << fmt::format("{:<22} {:>12} {:>12} {:>10} {:>9} {:>10} {:>8}\n", "benchmark", "tx/s", "events/s",
                             "sim s/s", "peak MB", "B/page", "wall s");
  for (const Benchmark* b : chosen) {
    try {
      const Figures f = run_benchmark(*b, scratch / b->name, args.quick);
      const json row = figures_json(*b, f);
      results.push_back(row);
      if (!args.json)
        std::cout << fmt::format("{:<22} {:>12.0f} {:>12.0f} {:>10.1f} {:>9.1f} {:>10.1f} {:>8.2f}\n", b->name,
                                 row["tx_per_s"].get<double>(), row["events_per_s"].get<double>(),
                                 row["sim_s_per_wall_s"].get<double>(), f.peak_rss_mb,
                                 row["bytes_per_page"].get<double>(), f.wall_s)
                  << std::flush;
    } catch (const std::exception& e) {
      std::cerr << "error: " << printable(e.what()) << '\n';
      rc = 1;
    }
    std::error_code ec;
    fs::remove_all(scratch / b->name, ec);
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  if (args.json) std::cout << json{{"benchmarks", results}}.dump(2) << '\n';
  return rc;
}

Command add_bench(CLI::App& app) {
  auto bench = std::make_shared<BenchArgs>();
  auto* cmd = app.add_subcommand("bench", "How fast ckptsim simulates: fixed shipped scenarios, timed");
  cmd->add_flag("--json", bench->json, "Print the figures as JSON");
  cmd->add_option("--filter", bench->filter, "Run only the benchmarks whose name contains this");
  cmd->add_flag("--quick", bench->quick, "Cut each to 3 simulated seconds: checks that bench works, measures nothing");
  return {cmd, [bench] { return command_bench(*bench); }};
}

}  // namespace ckptsim::cli
