// cli/folder/run_files.h
//
// Every file and folder name that ckptsim writes into, or recognises in, an
// output folder, as LevelDB's db/filename.h names the files of a database
// directory: no other source file spells one (the tests do, since users rely
// on the names). What each file holds is said where it is written
// (cli/run/run_point.h, cli/report/run_summary.h, cli/run/run_plan.h, cli/report/crash_report.h,
// output_lock.h, analysis/plots.h, cli/pages/index_layout.h); when they
// count as ckptsim's own in a folder a run reuses, in cli/folder/run_folder.h.
// The one name an asset needs (compare.js names progress.csv) is filled in
// where the page is written (cli/pages/compare_page.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analysis/tps_input.h"

namespace ckptsim::cli::run_files {

// A run folder (one point of a grid, or a single run).
inline constexpr char kRunRecord[] = "run.json";         // the recorded settings, written first
inline constexpr char kProgressCsv[] = "progress.csv";   // pgbench -P per interval
inline constexpr char kSystemCsv[] = "system.csv";       // kernel and device per interval
inline constexpr char kWaitsCsv[] = "waits.csv";         // wait events per interval
inline constexpr char kIoLayersCsv[] = "io_layers.csv";  // I/O per layer per interval
inline constexpr char kCheckpointsCsv[] = "checkpoints.csv";
inline constexpr char kPostgresLog[] = "postgres.log";  // the server log (log_checkpoints)
inline constexpr char kPgbenchLog[] = "pgbench.log";    // pgbench's final summary
inline constexpr char kSummaryJson[] = "summary.json";  // written last: "complete" says how it ended
inline constexpr char kPerfJson[] = "perf.json";        // wall-clock figures, the only machine-dependent file
inline constexpr char kCrashJson[] = "crash.json";      // --crash-at
inline constexpr char kTpsPng[] = "tps.png";
inline constexpr char kTpsSvg[] = "tps.svg";
inline constexpr char kSystemPng[] = "system.png";

// A grid folder (beside its point folders).
inline constexpr char kGridRecord[] = "grid.json";             // the points and the title, for `ckptsim plot`
inline constexpr char kSummaryCsv[] = "summary.csv";           // one row per point
inline constexpr char kSummaryMeanCsv[] = "summary-mean.csv";  // with "repeat": one row per point, across its repeats
inline constexpr char kReportTxt[] = "report.txt";
inline constexpr char kOverlayPng[] = "tps-overlay.png";
inline constexpr char kOverlaySvg[] = "tps-overlay.svg";
inline constexpr char kGridPng[] = "tps-grid.png";
inline constexpr char kStabilityPng[] = "stability.png";

// Both: the gnuplot script the images are drawn from, and ckptsim's own
// written beside it when the user edited plot.gp (cli/report/plot_folder.h).
inline constexpr char kPlotScript[] = "plot.gp";
inline constexpr char kOwnPlotScript[] = "plot.ckptsim.gp";

// `ckptsim compare`'s picture, in its --out folder (the working folder by default).
inline constexpr char kComparePng[] = "compare.png";
inline constexpr char kCompareSvg[] = "compare.svg";
inline constexpr char kCompareScript[] = "compare.gp";
inline constexpr char kValidateJson[] = "validate.json";  // `validate`: the verdicts beside its run's files

// The results index (cli/pages/index_layout.h): DIR/index.html, the other
// pages under DIR/_index/.
inline constexpr char kIndexHtml[] = "index.html";
inline constexpr char kIndexFolder[] = "_index";
inline constexpr char kCompareHtml[] = "compare.html";
inline constexpr char kRunHtml[] = "run.html";
inline constexpr char kGridHtml[] = "grid.html";
inline constexpr char kPageExtension[] = ".html";

// The plot images, as the pages show them: a PNG each, its SVG beside it
// when there is one; the tps plots first.
inline constexpr char kPngExtension[] = ".png";
inline constexpr char kSvgExtension[] = ".svg";
inline constexpr char kTpsPlotPrefix[] = "tps";

// One run at a time per folder (cli/folder/output_lock.h).
inline constexpr char kOutputLock[] = ".ckptsim.lock";

// Where `ckptsim run` writes without --out: out/<scenario file's stem>.
inline constexpr char kDefaultOutFolder[] = "out";

// pgbench --aggregate-interval logs: pgbench_log.PID, pgbench_log.PID.N (one per thread).
inline constexpr char kAggregateLogPrefix[] = "pgbench_log.";
// A run folder's tps as read_tps_input reads it: progress.csv, or its pgbench_log.* files.
const analysis::TpsInputNames& tps_input_names();

bool is_aggregate_log(const std::string& name);
// Thread 0's log is pgbench_log.PID, thread N's pgbench_log.PID.N (pgbench.c's logfile names).
std::string aggregate_log_name(int pgbench_pid, std::size_t thread);

// A temporary name: AtomicFile's "<name>.tmp.<pid>.<n>" (analysis/atomic_file.h),
// the plots' gnuplot outputs' "<name>.tmp.<pid>" (analysis/plots.h).
bool is_temporary_name(const std::string& name);
// A temporary of one of ckptsim's own files (a run's, a grid's, an aggregate
// log): "summary.json.tmp.4711.2", "tps.png.tmp.4711", never "draft.tmp.1".
// Only those are ever removed as what a dead run left.
bool is_own_temporary(const std::string& name);
// The name under which a file is written before it is linked to its own.
std::string temporary_name(const std::string& name, long pid);
// The pid a temporary name carries, or nullopt for another name.
std::optional<long> temporary_pid(const std::string& name);

// The files a complete run always has (pgbench_log.PID[.N] only with
// --aggregate-interval), and every file a point or a grid folder may hold.
const std::vector<std::string>& always_written();
bool is_point_file(const std::string& name);
bool is_grid_file(const std::string& name);

}  // namespace ckptsim::cli::run_files
