// cli/commands/bench.h
//
// `ckptsim bench [--json] [--filter NAME]`: how fast ckptsim simulates, on
// fixed shipped scenarios (scenarios/bench/, and the E1 small grid), so that
// a change that slows the hot paths shows up as a figure rather than as a
// user's lost afternoon. Each benchmark runs as `ckptsim run` in a child
// process of its own (so that its peak RSS is its own), into a temporary
// folder that is removed afterwards, and is read back from the run's
// summary.json files and the child's resource usage.
//
// Figures per benchmark: simulated transactions, events and simulated seconds
// per wall-clock second, peak RSS, and bytes of peak RSS per simulated
// database page (the pgbench tables and indexes at the scenario's scale;
// shared buffers, page cache and everything else are in the numerator). No
// figure is judged here: wall time depends on the machine and its load.
#pragma once

#include <string>
#include <vector>

namespace ckptsim::cli {

struct BenchArgs {
  bool json = false;
  std::string filter;  // run only the benchmarks whose name contains it ("" : all)
  bool quick = false;  // each benchmark cut to a few simulated seconds: checks that bench works, measures nothing
};

struct Benchmark {
  std::string name;
  std::string scenario;  // its file under the project's scenarios/ folder, without ".json"
  std::vector<std::string> extra_args;
  std::vector<std::string> quick_args;  // --quick: the --set lines that cut it short
  std::string what;
};

// The shipped benchmarks, in the order they run.
const std::vector<Benchmark>& shipped_benchmarks();

int command_bench(const BenchArgs& args);

}  // namespace ckptsim::cli
