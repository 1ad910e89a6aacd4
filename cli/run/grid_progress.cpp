#include "cli/run/grid_progress.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ckptsim::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Elapsed time scaled by what remains, once something is done.
double remaining(double elapsed, double done_fraction) {
  return done_fraction > 0 ? elapsed * (1.0 - done_fraction) / done_fraction : 0.0;
}

}  // namespace

std::string eta_text(double seconds) {
  const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

GridProgress::GridProgress(std::span<std::atomic<double>> fractions, Mode mode, std::FILE* out)
    : fractions_(fractions), mode_(mode), out_(out) {
  if (mode_ == Mode::bar) thread_ = std::thread([this] { redraw_loop(); });
}

GridProgress::~GridProgress() {
  if (mode_ != Mode::bar) return;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
  std::fputs("\r\033[K", out_);
}

void GridProgress::finished(const std::string& name, const char* how, double point_seconds) {
  std::lock_guard lock(mutex_);
  ++finished_;
  if (mode_ != Mode::lines) return;
  const std::size_t n = fractions_.size();
  const double eta = remaining(seconds_since(start_), static_cast<double>(finished_) / static_cast<double>(n));
  std::fputs(
      fmt::format("ckptsim: point {} of {} {}: {} ({}, ETA {})\n", finished_, n, how, name,
                  point_seconds < 10 ? fmt::format("{:.1f}s", point_seconds) : eta_text(point_seconds), eta_text(eta))
          .c_str(),
      out_);
  std::fflush(out_);
}

void GridProgress::redraw_loop() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return done_; })) {
    const double elapsed = seconds_since(start_);
    if (elapsed < 1.0) continue;  // only runs that take more than a moment get a bar
    double sum = 0;
    for (const auto& f : fractions_) sum += std::clamp(f.load(), 0.0, 1.0);
    const double overall = fractions_.empty() ? 1.0 : sum / static_cast<double>(fractions_.size());
    constexpr int kWidth = 30;
    const auto filled = static_cast<std::size_t>(overall * kWidth);
    std::fputs(fmt::format("\r[{}{}] {}/{} points, {:3.0f}%, ETA {}\033[K", std::string(filled, '#'),
                           std::string(kWidth - filled, '-'), finished_, fractions_.size(), 100.0 * overall,
                           overall > 0 ? eta_text(remaining(elapsed, overall)) : std::string("?"))
                   .c_str(),
               out_);
    std::fflush(out_);
  }
}

}  // namespace ckptsim::cli
