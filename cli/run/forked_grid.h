// cli/run/forked_grid.h
//
// Runs a grid's points in processes, so that the points of a warmup group
// (warmup_group.h) continue from one warmup:
//
//   ckptsim run (this process: the progress bar, the grid's files at the end)
//     `- runner: one process, single-threaded, that forks
//          `- a group process per warmup group: builds the host, runs the warmup, then forks
//               `- a point process per point: applies the point's settings (a reload),
//                  runs the measured part into the point's folder, exits
//
// fork(2) copies the warmed-up host exactly; the runner and the group
// processes have one thread, so no lock is held by a thread that the copy
// lacks. --jobs caps the simulations that run at once (a warmup, or a point's
// measured part) through a process-shared semaphore. The processes report
// through shared memory: each point's simulated progress (for the bar), its
// state and its error; its outcome is read back from its folder's
// summary.json. A signal to ckptsim (SIGINT, SIGTERM, SIGHUP) is passed on to
// the runner's process group, whose members then stop as a single run does;
// if ckptsim dies, the kernel kills the runner, and each process the one it
// forked (PR_SET_PDEATHSIG), so nothing writes into the folder after it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/folder/run_folder.h"
#include "cli/report/run_outcome.h"
#include "scenarios/scenario.h"

namespace ckptsim::cli {

// What became of each point of a plan, run here or kept from an earlier run.
struct PlanResults {
  explicit PlanResults(std::size_t n) : outcomes(n), errors(n), warnings(n), ran(n, 0), measured(n, 0) {}
  // run_plan's in-process pool derives from it and is owned through a unique_ptr<PlanResults>.
  virtual ~PlanResults() = default;
  PlanResults(const PlanResults&) = default;
  PlanResults& operator=(const PlanResults&) = default;
  PlanResults(PlanResults&&) = default;
  PlanResults& operator=(PlanResults&&) = default;
  std::vector<RunOutcome> outcomes;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;  // an earlier run's point folder that could not all be removed
  std::vector<char> ran;              // ran to its end, or kept from an earlier run
  std::vector<char> measured;         // ran in this process, to its end or until a stop
};

struct ForkedGridInput {
  const scenarios::Plan& plan;
  std::filesystem::path out;                          // the grid folder
  const std::vector<std::string>& records;            // each point's run.json
  const std::vector<std::optional<KeptPoint>>& kept;  // points kept from an earlier run
  std::vector<char> selected;                         // the points this process runs (a --shard, a --point)
  int jobs = 1;
  double threshold = 10.0;
  std::optional<sim::Duration> crash_at;
  bool profile =
      false;  // --profile: each point's perf.json charges its events to components (cli/report/run_profile.h)
  bool progress = true;  // a bar on a terminal, else a line per point
};

// Runs the selected points (kept ones aside) and returns what became of them.
PlanResults run_forked_grid(const ForkedGridInput& input);

}  // namespace ckptsim::cli
