// cli/report/run_outcome.h
//
// What a point's run came to, as run_point returns it and the summaries
// (cli/report/run_summary.h) and the grid (cli/run/run_plan.h) read it.
#pragma once

#include <cstdint>

#include "analysis/stability.h"
#include "cli/folder/stop.h"

namespace ckptsim::cli {

struct RunOutcome {
  analysis::Stability stability;
  std::int64_t events = 0;
  double simulated_seconds = 0;
  double wall_seconds = 0;
  StopReason stopped_by = StopReason::none;  // none: the run went to its end
};

}  // namespace ckptsim::cli
