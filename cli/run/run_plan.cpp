#include "cli/run/run_plan.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "analysis/atomic_file.h"
#include "analysis/plots.h"
#include "analysis/report.h"
#include "cli/folder/printable.h"
#include "cli/folder/run_files.h"
#include "cli/folder/run_folder.h"
#include "cli/folder/staged_folder.h"
#include "cli/folder/stop.h"
#include "cli/report/grid_files.h"
#include "cli/report/grid_report.h"
#include "cli/report/plot_folder.h"
#include "cli/run/forked_grid.h"
#include "cli/run/grid_progress.h"
#include "cli/run/published_verdict.h"
#include "cli/run/run_chain.h"
#include "cli/run/run_point.h"
#include "cli/run/warmup_group.h"

namespace ckptsim::cli {

namespace {

// One plan's points, run by a pool of workers that each take the next point.
// A single run and a chained grid's points run here, in this process; the
// other grids' points in processes of their own (forked_grid.h).
class PointPool : public PlanResults {
 public:
  PointPool(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options,
            const std::vector<std::string>& records, const std::vector<std::optional<KeptPoint>>& kept)
      : PlanResults(plan.points.size()),
        plan_(plan),
        out_(out),
        options_(options),
        records_(records),
        kept_(kept),
        n_(plan.points.size()),
        single_(!plan.is_grid()),
        fractions_(n_) {
    if (plan.chained) chain_.emplace();
  }

  // Runs every point on `jobs` threads (this one among them), with a progress bar or lines for a grid.
  void run_all() {
    // --quiet prints nothing but errors; a single run shows pgbench's own -P lines instead.
    const GridProgress::Mode mode = options_.quiet || single_ ? GridProgress::Mode::off
                                    : isatty(STDERR_FILENO)   ? GridProgress::Mode::bar
                                                              : GridProgress::Mode::lines;
    progress_.emplace(fractions_, mode);
    // A chain's points run on one host, one after another: one worker.
    const int jobs = chain_ ? 1 : std::clamp<int>(options_.jobs, 1, static_cast<int>(std::max<std::size_t>(n_, 1)));
    std::vector<std::thread> pool;
    for (int j = 1; j < jobs; ++j) pool.emplace_back([this] { work(); });
    work();
    for (auto& t : pool) t.join();
    progress_.reset();  // the bar's line is cleared before anything else is printed
  }

 private:
  void work() {
    for (std::size_t i = next_++; i < n_; i = next_++) {
      const auto point_start = std::chrono::steady_clock::now();
      const char* how = run_one(i);
      fractions_[i] = 1.0;
      if (how) {
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - point_start;
        progress_->finished(plan_.points[i].name, how, took.count());
      }
    }
  }

  // What became of point i ("kept", "done", "stopped", "failed"), or nullptr when a stop came before it.
  const char* run_one(std::size_t i) {
    if (kept_[i]) {
      outcomes[i] = {.stability = kept_[i]->stability,
                     .events = kept_[i]->events,
                     .simulated_seconds = kept_[i]->simulated_seconds};
      ran[i] = 1;
      return "kept";
    }
    if (stop_requested() != StopReason::none) return nullptr;
    if (chain_ && i > 0 && !ran[i - 1]) return nullptr;  // the host the point needs did not get there
    RunOptions run{.print_progress = single_ && !options_.quiet,
                   .threshold = options_.threshold,
                   .fraction = &fractions_[i],
                   .record = records_[i],
                   .crash_at = options_.crash_at,
                   .profile = options_.profile};
    try {
      // A single run's folder is staged by run_plan, around its plots; a grid's points here, one by one.
      std::optional<StagedFolder> staged;
      if (!single_) staged.emplace(out_ / plan_.points[i].name);
      const std::filesystem::path dir = staged ? staged->path() : out_;
      outcomes[i] = chain_ ? chain_->run_next(plan_.points[i].scenario, dir, run)
                           : run_point(plan_.points[i].scenario, plan_.points[i].host(), dir, run);
      ran[i] = outcomes[i].stopped_by == StopReason::none;
      measured[i] = 1;
      if (staged) {
        const std::filesystem::path point_dir = out_ / plan_.points[i].name;
        warnings[i] = !ran[i] && finished_run(point_dir) ? staged->set_aside(stopped_name(point_dir))
                                                          : staged->commit();
      }
      return ran[i] ? "done" : "stopped";
    } catch (const std::exception& e) {
      errors[i] = e.what();
      return "failed";
    }
  }

  const scenarios::Plan& plan_;
  const std::filesystem::path& out_;
  const PlanOptions& options_;
  const std::vector<std::string>& records_;
  const std::vector<std::optional<KeptPoint>>& kept_;
  const std::size_t n_;
  const bool single_;
  std::vector<std::atomic<double>> fractions_;
  std::atomic<std::size_t> next_{0};
  std::optional<GridProgress> progress_;
  std::optional<ChainHost> chain_;  // a chained grid's host (run_chain.h)
};

// The exit code of a plan whose points did not all run to their end (errors
// printed, or why it stopped), or nullopt when they all did.
std::optional<int> unfinished(const scenarios::Plan& plan, const PlanResults& pool, const std::vector<char>& selected) {
  const std::size_t n =
      selected.empty() ? plan.points.size() : static_cast<std::size_t>(std::count(selected.begin(), selected.end(), 1));
  const bool single = !plan.is_grid();
  int failed = 0;
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    if (pool.errors[i].empty()) continue;
    ++failed;
    std::cerr << "error: " << printable(single ? std::string("run") : "point " + plan.points[i].name) << ": "
              << printable(pool.errors[i]) << '\n';
  }
  if (failed) return 1;
  const std::size_t done = static_cast<std::size_t>(std::count(pool.ran.begin(), pool.ran.end(), 1));
  if (done == n) return std::nullopt;
  // A stopped grid writes no grid table: it would judge partial series beside whole ones.
  const StopReason why = stop_requested();
  std::cerr << "ckptsim: " << stop_description(why) << ": "
            << (single ? fmt::format("the run stopped early; its {} says \"complete\": false", run_files::kSummaryJson)
                : plan.chained ? fmt::format("{} of {} points of the chain complete, the later ones not run; the same "
                                             "command runs the whole chain again",
                                             done, n)
                               : fmt::format("{} of {} points complete; the same command resumes the grid", done, n))
            << '\n';
  return stop_exit_code(why);
}

// A stopped plan's plots: those of each run it measured, from the intervals
// it committed (no grid plots: they would compare partial series with whole ones).
void plot_stopped(const scenarios::Plan& plan, const std::filesystem::path& dir, const PlanOptions& options,
                  const PlanResults& pool, const std::filesystem::path& shown) {
  if (!analysis::gnuplot_available()) return;
  for (std::size_t i = 0; i < plan.points.size(); ++i) {
    if (!pool.measured[i]) continue;
    const std::filesystem::path run_dir = plan.is_grid() ? dir / plan.points[i].name : dir;
    if (!std::filesystem::exists(run_dir / run_files::kProgressCsv)) continue;  // stopped before its first interval
    plot_folder(run_dir, plan.is_grid() ? options.title + ": " + plan.points[i].name : options.title, false,
                plan.is_grid() ? shown / plan.points[i].name : shown);
  }
}

// The published verdict, when the plan reproduces a published experiment.
void print_verdict(const scenarios::Plan& plan, const PlanOptions& options, const std::vector<std::string>& names,
                   const std::vector<RunOutcome>& outcomes) {
  if (!plan.published || options.quiet) return;
  std::vector<analysis::Stability> stabilities;
  for (const RunOutcome& outcome : outcomes) stabilities.push_back(outcome.stability);
  const std::string verdict = published_verdict(*plan.published, names, stabilities);
  if (verdict.empty()) return;
  std::cout << verdict
            << (options.overridden ? " (settings changed by --set or --preset-file: not the published setup)" : "")
            << '\n';
}

// A single run's table (printed) and plots.
void write_single_outputs(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options,
                          const std::vector<std::string>& names, const std::vector<RunOutcome>& outcomes,
                          const std::filesystem::path& shown) {
  const std::vector<analysis::ReportRow> rows{
      {.values = {}, .stability = outcomes.front().stability, .repeat = 0, .figures = {}}};
  if (!options.quiet) std::cout << analysis::format_report(plan.grid_paths, rows, options.threshold);
  print_verdict(plan, options, names, outcomes);
  if (analysis::gnuplot_available()) {
    plot_folder(out, options.title, false, shown);
  } else if (!options.quiet) {
    std::cerr << "warning: gnuplot not found, no plots written (scripts/setup installs it)\n";
  }
}

// A grid's files: grid.json, then what `ckptsim report` writes from the point folders.
void write_grid_outputs(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options,
                        const std::vector<std::string>& names, const std::vector<RunOutcome>& outcomes) {
  write_grid_record(out, plan, options.title, options.threshold, options.scenario_file);
  const GridReport report = report_grid(out, !options.quiet);
  if (!options.quiet) std::cout << report.text;
  print_verdict(plan, options, names, outcomes);
}

// Each point's run.json.
std::vector<std::string> point_records(const scenarios::Plan& plan, const PlanOptions& options) {
  const std::size_t n = plan.points.size();
  const std::vector<std::string> shared_with = warmup_shared_with(plan);
  std::vector<std::string> records;
  for (std::size_t i = 0; i < n; ++i) {
    const std::optional<ChainPlace> place =
        plan.chained ? std::optional<ChainPlace>(ChainPlace{i + 1, n, i > 0 ? plan.points[i - 1].name : ""})
                     : std::nullopt;
    records.push_back(run_record(plan.points[i].scenario, options.threshold, options.crash_at, place,
                                 options.scenario_file, point_place(plan.points[i], shared_with[i])));
  }
  return records;
}

// Runs the plan's points: here for a single run or a chain, else in processes that share warmups.
std::unique_ptr<PlanResults> run_points(const scenarios::Plan& plan, const std::filesystem::path& dir,
                                        const PlanOptions& options, const std::vector<std::string>& records,
                                        const std::vector<std::optional<KeptPoint>>& kept) {
  if (!plan.is_grid() || plan.chained) {
    auto pool = std::make_unique<PointPool>(plan, dir, options, records, kept);
    pool->run_all();
    return pool;
  }
  std::vector<char> selected = options.selected;
  if (selected.empty()) selected.assign(plan.points.size(), 1);
  return std::make_unique<PlanResults>(run_forked_grid({.plan = plan,
                                                        .out = dir,
                                                        .records = records,
                                                        .kept = kept,
                                                        .selected = std::move(selected),
                                                        .jobs = options.jobs,
                                                        .threshold = options.threshold,
                                                        .crash_at = options.crash_at,
                                                        .profile = options.profile,
                                                        .progress = !options.quiet}));
}

}  // namespace

int run_plan(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options) {
  const std::size_t n = plan.points.size();
  std::vector<std::string> names;
  for (const scenarios::GridPoint& point : plan.points) names.push_back(point.name);
  const std::vector<std::string> records = point_records(plan, options);
  const bool partial = !options.selected.empty();
  // A chain's points depend on each other: none is kept from an earlier run (cli/folder/run_folder.h).
  const std::vector<std::optional<KeptPoint>> kept =
      prepare_output(out, names, records, plan.is_grid() && !plan.chained);
  if (plan.is_grid()) retire_earlier_grid_files(out, names, kept);  // cli/report/grid_files.h
  // A share of a grid records the whole grid first, for `ckptsim report` (cli/report/grid_report.h).
  if (partial) write_grid_record(out, plan, options.title, options.threshold, options.scenario_file);

  // A single run is written beside `out` and put in its place with its plots (cli/folder/staged_folder.h).
  std::optional<StagedFolder> staged;
  if (!plan.is_grid()) staged.emplace(out);
  const std::filesystem::path dir = staged ? staged->path() : out;
  const std::unique_ptr<PlanResults> pool = run_points(plan, dir, options, records, kept);
  for (const std::string& warning : pool->warnings) warn_if_any(warning);
  if (const auto rc = unfinished(plan, *pool, options.selected)) {
    if (*rc == 1) return 1;  // failed: a single run's folder keeps the earlier run's files
    plot_stopped(plan, dir, options, *pool, out);
    // A stopped rerun does not replace a complete run: it goes beside it, as kill -9 would leave the complete one.
    if (staged) warn_if_any(finished_run(out) ? staged->set_aside(stopped_name(out)) : staged->commit());
    remove_left_behind(out);
    return *rc;
  }
  if (plan.is_grid()) {
    std::size_t reused = 0;
    for (std::size_t i = 0; i < n; ++i) reused += kept[i] && (!partial || options.selected[i]) ? 1 : 0;
    if (reused > 0 && !options.quiet)
      std::cerr << fmt::format(
          "ckptsim: kept {} of {} points from an earlier run of the same settings\n", reused,
          partial ? static_cast<std::size_t>(std::count(options.selected.begin(), options.selected.end(), 1)) : n);
  }
  if (partial) {
    if (!options.quiet)
      std::cerr << fmt::format("ckptsim: {} done; once every share is, `ckptsim report {}` writes the grid's files\n",
                               options.selection_name, printable(out.string()));
    remove_left_behind(out);
    return 0;
  }
  if (staged) {
    write_single_outputs(plan, dir, options, names, pool->outcomes, out);  // staged in dir, shown as out
    warn_if_any(staged->commit());
  } else {
    write_grid_outputs(plan, dir, options, names, pool->outcomes);
    finish_grid_output(out, names);
  }
  remove_left_behind(out);
  return 0;
}

}  // namespace ckptsim::cli
