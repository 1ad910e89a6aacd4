// cli/run/grid_progress.h
//
// A grid's progress on stderr while its points run, unless --quiet.
// On a terminal, one line redrawn in place:
//   "[#########---------------------] 3/8 points, 31%, ETA 1m05s"
// the completion from each point's simulated-time fraction, the ETA the
// elapsed wall time scaled by what remains. Anywhere else (a pipe, a log
// file), where a redrawn line would be noise, one line per finished point:
//   "ckptsim: point 3 of 8 done: clients=2,checkpoint_sorting=false (4.2s, ETA 9s)"
// (the point's own wall time, then the estimate for the rest of the grid)
// with "kept" for a point reused from an earlier run, "stopped" or "failed".
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace ckptsim::cli {

// "9s", "1m05s", "2h03m": a wall-clock estimate, whole seconds.
std::string eta_text(double seconds);

class GridProgress {
 public:
  enum class Mode { off, bar, lines };
  // fractions: each point's completion in [0, 1], written by the workers.
  GridProgress(std::span<std::atomic<double>> fractions, Mode mode, std::FILE* out = stderr);
  ~GridProgress();
  GridProgress(const GridProgress&) = delete;
  GridProgress& operator=(const GridProgress&) = delete;

  // A worker finished point `name` ("done", "kept", "stopped" or "failed"): a line in lines mode.
  void finished(const std::string& name, const char* how, double point_seconds);

 private:
  void redraw_loop();

  std::span<std::atomic<double>> fractions_;
  Mode mode_;
  std::FILE* out_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::size_t finished_ = 0;
  bool done_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace ckptsim::cli
