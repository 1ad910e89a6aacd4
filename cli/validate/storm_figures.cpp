// cli/validate/storm_figures.cpp
#include "cli/validate/storm_figures.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

namespace ckptsim::cli {

namespace {

constexpr double kStallTps = 10.0;
constexpr double kShortestPhase = 3.0;

enum class Phase { Between, Write, Sync };

struct PhaseSpan {
  double start, end;
  Phase phase;
};

// The run's time cut into phases: between checkpoints, then each one's write and sync phase.
std::vector<PhaseSpan> phases_of(const StormRun& run) {
  const double end = run.duration_s();
  std::vector<PhaseSpan> out;
  double at = 0;
  for (const CheckpointSpan& c : run.checkpoints) {
    if (c.shutdown || c.start_s >= end) continue;
    const double write_end = std::min(end, c.write_end_s.value_or(end));
    const double sync_end = std::min(end, c.sync_end_s.value_or(end));
    if (c.start_s > at) out.push_back({at, c.start_s, Phase::Between});
    out.push_back({std::max(0.0, c.start_s), write_end, Phase::Write});
    if (sync_end > write_end) out.push_back({write_end, sync_end, Phase::Sync});
    at = std::max(at, sync_end);
  }
  if (end > at) out.push_back({at, end, Phase::Between});
  return out;
}

// Mean tps over the seconds whose middle lies in a phase of that kind lasting kShortestPhase or more.
void phase_mean(const StormRun& run, const std::vector<PhaseSpan>& spans, Phase phase, std::optional<double>& mean,
                double& seconds) {
  double sum = 0;
  int n = 0;
  for (const PhaseSpan& s : spans) {
    if (s.phase != phase || s.end - s.start < kShortestPhase) continue;
    seconds += s.end - s.start;
    for (std::size_t i = 0; i < run.tps.size(); ++i) {
      const double middle = static_cast<double>(i) + 0.5;
      if (middle >= s.start && middle < s.end) {
        sum += run.tps[i];
        ++n;
      }
    }
  }
  if (n > 0) mean = sum / n;
}

Verdict relative(std::string figure, std::string key, double real, double sim, double fraction, double or_tps) {
  Verdict v;
  v.figure = std::move(figure);
  v.key = std::move(key);
  v.real = real;
  v.sim = sim;
  const double allowed = std::max(fraction * std::abs(real), or_tps);
  v.held = std::abs(sim - real) <= allowed;
  v.band = or_tps > 0 ? fmt::format("±{:.0f} % or {:.0f} tps", 100 * fraction, or_tps)
                      : fmt::format("±{:.0f} %", 100 * fraction);
  return v;
}

Verdict not_compared(std::string figure, std::string key, std::string band, std::string note) {
  Verdict v;
  v.figure = std::move(figure);
  v.key = std::move(key);
  v.band = std::move(band);
  v.compared = false;
  v.note = std::move(note);
  return v;
}

}  // namespace

StormFigures storm_figures(const StormRun& run) {
  StormFigures f;
  if (run.tps.empty()) return f;
  f.mean = std::accumulate(run.tps.begin(), run.tps.end(), 0.0) / static_cast<double>(run.tps.size());
  std::vector<double> sorted = run.tps;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  f.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  f.pct_below_10 = 100.0 * static_cast<double>(std::count_if(run.tps.begin(), run.tps.end(),
                                                             [](double t) { return t < kStallTps; })) /
                   static_cast<double>(n);
  const std::vector<PhaseSpan> spans = phases_of(run);
  phase_mean(run, spans, Phase::Between, f.between, f.between_s);
  phase_mean(run, spans, Phase::Write, f.write, f.write_phase_s);
  phase_mean(run, spans, Phase::Sync, f.sync, f.sync_phase_s);
  for (const CheckpointSpan& c : run.checkpoints) {
    if (c.shutdown || !c.complete() || c.start_s < 0 || *c.sync_end_s > run.duration_s()) continue;
    ++f.checkpoints;
    f.write_s += *c.write_end_s - c.start_s;
    f.sync_s += *c.sync_end_s - *c.write_end_s;
    f.buffers += static_cast<double>(c.buffers);
  }
  if (f.checkpoints > 0) {
    f.write_s /= f.checkpoints;
    f.sync_s /= f.checkpoints;
    f.buffers /= f.checkpoints;
  }
  return f;
}

std::vector<Verdict> judge(const StormFigures& real, const StormFigures& sim) {
  std::vector<Verdict> out;
  out.push_back(relative("mean tps", "mean", real.mean, sim.mean, 0.20, 0));
  out.push_back(relative("median tps", "median", real.median, sim.median, 0.25, 10));
  Verdict stalls = relative("% of seconds < 10 tps", "pct_below_10", real.pct_below_10, sim.pct_below_10, 0, 0);
  stalls.band = "±10 points";
  stalls.held = std::abs(sim.pct_below_10 - real.pct_below_10) <= 10.0;
  out.push_back(stalls);
  const struct {
    const char *figure, *key;
    const std::optional<double>& real;
    const std::optional<double>& sim;
  } phases[] = {{"tps between checkpoints", "between", real.between, sim.between},
                {"tps in write phases", "write_phase", real.write, sim.write},
                {"tps in sync phases", "sync_phase", real.sync, sim.sync}};
  for (const auto& p : phases) {
    if (p.real && p.sim) {
      out.push_back(relative(p.figure, p.key, *p.real, *p.sim, 0.25, 10));
    } else {
      out.push_back(not_compared(p.figure, p.key, "±25 % or 10 tps",
                                 p.real  ? "the simulated run has no such phase of 3 s or more"
                                 : p.sim ? "the real run has no such phase of 3 s or more"
                                         : "no such phase of 3 s or more in either run"));
      if (p.real) out.back().real = *p.real;
      if (p.sim) out.back().sim = *p.sim;
    }
  }
  if (real.checkpoints == 0 || sim.checkpoints == 0) {
    const std::string note = (real.checkpoints == 0 ? "the real" : "the simulated") +
                             std::string(" run has no checkpoint that began and ended within it");
    out.push_back(not_compared("checkpoint write s", "write_s", "±30 %", note));
    out.push_back(not_compared("checkpoint sync s", "sync_s", "×2, or both < 1 s", note));
    out.push_back(not_compared("buffers per checkpoint", "buffers", "±15 %", note));
    return out;
  }
  out.push_back(relative("checkpoint write s", "write_s", real.write_s, sim.write_s, 0.30, 0));
  Verdict sync = relative("checkpoint sync s", "sync_s", real.sync_s, sim.sync_s, 0, 0);
  sync.band = "×2, or both < 1 s";
  sync.held = (real.sync_s < 1.0 && sim.sync_s < 1.0) ||
              (real.sync_s > 0 && sim.sync_s >= real.sync_s / 2 && sim.sync_s <= real.sync_s * 2);
  out.push_back(sync);
  out.push_back(relative("buffers per checkpoint", "buffers", real.buffers, sim.buffers, 0.15, 0));
  return out;
}

}  // namespace ckptsim::cli
