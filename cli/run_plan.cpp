#include "cli/run_plan.h"

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
#include "cli/grid_progress.h"
#include "cli/plot_folder.h"
#include "cli/run_folder.h"
#include "cli/run_point.h"
#include "cli/stop.h"

namespace ckptsim::cli {

int run_plan(const scenarios::Plan& plan, const std::filesystem::path& out, const PlanOptions& options) {
  const std::size_t n = plan.points.size();
  const bool single = !plan.is_grid();
  std::vector<std::string> names, records;
  for (const auto& point : plan.points) {
    names.push_back(point.name);
    records.push_back(run_record(point.scenario, options.threshold, options.crash_at));
  }
  const std::vector<std::optional<KeptPoint>> kept = prepare_output(out, names, records, !single);

  std::vector<RunOutcome> outcomes(n);
  std::vector<std::string> errors(n);
  std::vector<std::atomic<double>> fractions(n);
  std::vector<char> ran(n, 0);  // ran to its end, or kept from an earlier run
  std::atomic<std::size_t> next{0};

  // --quiet prints nothing but errors; a single run shows pgbench's own -P lines instead.
  const GridProgress::Mode mode = options.quiet || single  ? GridProgress::Mode::off
                                  : isatty(STDERR_FILENO) ? GridProgress::Mode::bar
                                                          : GridProgress::Mode::lines;
  std::optional<GridProgress> progress(std::in_place, fractions, mode);
  auto dir_of = [&](std::size_t i) { return single ? out : out / plan.points[i].name; };
  auto worker = [&] {
    for (std::size_t i = next++; i < n; i = next++) {
      const auto point_start = std::chrono::steady_clock::now();
      const char* how = nullptr;
      if (kept[i]) {
        outcomes[i] = {.stability = kept[i]->stability, .events = kept[i]->events,
                       .simulated_seconds = kept[i]->simulated_seconds};
        ran[i] = 1;
        how = "kept";
      } else if (stop_requested() == StopReason::none) {
        RunOptions run{.print_progress = single && !options.quiet, .threshold = options.threshold,
                       .fraction = &fractions[i], .record = records[i],
                       .crash_at = options.crash_at};
        try {
          outcomes[i] = run_point(plan.points[i].scenario, dir_of(i), run);
          ran[i] = outcomes[i].stopped_by == StopReason::none;
          how = ran[i] ? "done" : "stopped";
        } catch (const std::exception& e) {
          errors[i] = e.what();
          how = "failed";
        }
      }
      fractions[i] = 1.0;
      if (how) {
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - point_start;
        progress->finished(plan.points[i].name, how, took.count());
      }
    }
  };
  {
    const int jobs = std::clamp<int>(options.jobs, 1, static_cast<int>(std::max<std::size_t>(n, 1)));
    std::vector<std::thread> pool;
    for (int j = 1; j < jobs; ++j) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
  }
  progress.reset();  // the bar's line is cleared before anything else is printed

  int failed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (errors[i].empty()) continue;
    ++failed;
    std::cerr << "error: " << (single ? std::string("run") : "point " + plan.points[i].name) << ": " << errors[i]
              << '\n';
  }
  if (failed) return 1;
  const std::size_t done = static_cast<std::size_t>(std::count(ran.begin(), ran.end(), 1));
  if (done < n) {
    // A stopped run writes no grid table and no plots: they would judge partial series.
    const StopReason why = stop_requested();
    std::cerr << "ckptsim: " << stop_description(why) << ": "
              << (single ? std::string("the run stopped early; its summary.json says \"complete\": false")
                         : fmt::format("{} of {} points complete; the same command resumes the grid", done, n))
              << '\n';
    return stop_exit_code(why);
  }
  if (!single) {
    const std::size_t reused = static_cast<std::size_t>(std::count_if(kept.begin(), kept.end(), [](const auto& k) {
      return k.has_value();
    }));
    if (reused > 0 && !options.quiet)
      std::cerr << fmt::format("ckptsim: kept {} of {} points from an earlier run of the same settings\n", reused, n);
  }

  std::vector<analysis::ReportRow> rows;
  for (std::size_t i = 0; i < n; ++i) {
    analysis::ReportRow row;
    for (const auto& [path, value] : plan.points[i].values)
      row.values.push_back(value.is_string() ? value.get<std::string>() : value.dump());
    row.stability = outcomes[i].stability;
    rows.push_back(std::move(row));
  }
  const std::string report = analysis::format_report(plan.grid_paths, rows, options.threshold);
  if (!single) {
    analysis::write_summary_csv(out / "summary.csv", plan.grid_paths, rows);
    analysis::write_file_atomically(out / "report.txt", report);
  }
  if (!options.quiet) std::cout << report;

  if (!single) write_grid_index(out, options.title, names);
  if (analysis::gnuplot_available()) {
    plot_folder(out, options.title);
  } else if (!options.quiet) {
    std::cerr << "warning: gnuplot not found, no plots written (scripts/setup installs it)\n";
  }
  return 0;
}

}  // namespace ckptsim::cli
