// analysis/plots.cpp
//
// Scripts are assembled as text, written atomically, then run by gnuplot from
// the folder they live in (posix_spawn with that working directory, output
// captured so that nothing reaches the terminal unless the caller reports a
// failure).
#include "analysis/plots.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "analysis/atomic_file.h"
#include "analysis/csv.h"

extern char** environ;

namespace ckptsim::analysis {

namespace {

constexpr int kWidth = 1200;
constexpr int kHeight = 500;              // one tps plot
constexpr int kPanelHeight = 260;         // one panel of a stacked plot
constexpr int kGridPanelHeight = 340;     // one point of a grid's small multiples
constexpr std::size_t kOverlayLines = 8;  // lines one overlay panel can show apart (colours, key)
constexpr std::size_t kNamedBars = 8;     // stability bars labelled by name; more are numbered

// A gnuplot single-quoted string: no escapes are processed except '' for '.
std::string gp_quote(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += "''";
    else if (c == '\n' || c == '\r') quoted += ' ';
    else quoted += c;
  }
  return quoted + "'";
}

// One line of a plot; an empty title leaves it out of the key.
std::string series_of(std::string_view csv, std::string_view column, std::string_view title) {
  return fmt::format("{} using (column(\"time_s\")):(column(\"{}\")) with lines lw 1 {}", gp_quote(csv), column,
                     title.empty() ? "notitle" : "title " + gp_quote(title));
}

// The part every script shares: how to read ckptsim's CSVs and render temporaries.
std::string preamble(std::string_view script, std::string_view what, std::string_view outputs) {
  return fmt::format(
      "# {0}: {1}, written by ckptsim.\n"
      "# Re-run from this folder with `gnuplot {0}`; it writes {2}.\n"
      "# ckptsim sets `suffix` to render under temporary names, then renames them.\n"
      "if (!exists(\"suffix\")) suffix = \"\"\n"
      "set datafile separator \",\"\n"
      "set key autotitle columnhead\n"
      "set grid\n"
      "set xlabel \"time (s)\"\n"
      "set ylabel \"tps\"\n"
      "set yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\n"
      "set lmargin 10\n",  // stacked panels share their x axis only if their margins match
      script, what, outputs);
}

std::string terminal(std::string_view kind, int height, std::string_view output) {
  return fmt::format("set terminal {} size {},{} noenhanced\nset output \"{}\".suffix\n", kind, kWidth, height, output);
}

// gnuplot with `folder` as its working directory, set by posix_spawn itself:
// never a shell's `cd`, which takes "-" for $OLDPWD and "--" for $HOME. Its
// stdout and stderr come back through a pipe; returns its wait status (-1 if
// it could not be started).
int run_gnuplot(const std::filesystem::path& folder, const std::string& script_name, const std::string& suffix,
                std::string& said) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
  std::string program = "gnuplot", e = "-e", set_suffix = fmt::format("suffix='{}'", suffix), script = script_name;
  char* argv[] = {program.data(), e.data(), set_suffix.data(), script.data(), nullptr};
  pid_t pid = -1;
  const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned == 0) {
    std::array<char, 512> buffer{};
    ssize_t n = 0;
    while ((n = ::read(fds[0], buffer.data(), buffer.size())) != 0) {
      if (n > 0) said.append(buffer.data(), static_cast<std::size_t>(n));
      else if (errno != EINTR) break;
    }
  }
  ::close(fds[0]);
  if (spawned != 0) {
    said = fmt::format("cannot start gnuplot: {}", std::strerror(spawned));
    return -1;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

// Whether a rendered image was written to its end: a PNG closes with its IEND
// chunk, an SVG with </svg>. gnuplot exits 0 when cairo could not write the
// rest of a PNG (a full disk, a file size limit): its size alone proves nothing.
bool is_complete_image(const std::filesystem::path& path, const std::filesystem::path& final_name) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return false;
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (final_name.extension() == ".png") {
    static const std::string_view iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    return text.size() > iend.size() && std::string_view(text).ends_with(iend);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return std::string_view(text).ends_with("</svg>");
}

// Why an image could not be finished: ENOSPC by name when the file system is full.
std::string why_incomplete(const std::filesystem::path& folder) {
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) == 0 && fs.f_bavail == 0) return std::strerror(ENOSPC);
  return "the file was cut short (a full disk or a file size limit?)";
}

// Runs gnuplot on folder/script and moves each rendered output into place,
// only when gnuplot exited 0 and every image is complete; otherwise no final
// name changes and every temporary goes.
void render(const std::filesystem::path& folder, const std::string& script, const std::vector<std::string>& outputs) {
  const std::string suffix = fmt::format(".tmp.{}", static_cast<long>(::getpid()));
  std::string said;
  const int status = run_gnuplot(folder, script, suffix, said);
  const bool ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  std::string failure;
  if (!ok) failure = fmt::format("{}: gnuplot failed: {}", (folder / script).string(), said);
  for (const std::string& name : outputs) {
    if (!failure.empty()) break;
    const auto temp = folder / (name + suffix);
    if (!std::filesystem::exists(std::filesystem::symlink_status(temp))) {
      failure = fmt::format("{}: gnuplot wrote no {}", (folder / script).string(), name);
    } else if (!is_complete_image(temp, name)) {
      failure = fmt::format("{}: gnuplot could not finish it: {}", (folder / name).string(), why_incomplete(folder));
    }
  }
  for (const std::string& name : outputs) {
    const auto temp = folder / (name + suffix);
    std::error_code ec;
    if (failure.empty()) {
      std::filesystem::rename(temp, folder / name, ec);
      if (ec)
        failure = fmt::format("{}: cannot rename {} over it: {}", (folder / name).string(), temp.filename().string(),
                              ec.message());
    }
    if (!failure.empty()) std::filesystem::remove(temp, ec);
  }
  if (!failure.empty()) throw std::runtime_error(failure);
}

bool has(const std::vector<std::string>& header, std::string_view name) {
  return std::find(header.begin(), header.end(), name) != header.end();
}

// The panel of system.csv columns that exist, or nothing.
std::string system_panel(std::string_view system_csv, const std::vector<std::string>& header,
                         const std::vector<std::string_view>& wanted, std::string_view panel_title,
                         std::string_view ylabel) {
  std::vector<std::string> series;
  for (std::string_view column : wanted) {
    if (has(header, column)) series.push_back(series_of(system_csv, column, column));
  }
  if (series.empty()) return {};
  std::string text = fmt::format("set title {}\nset ylabel {}\nplot ", gp_quote(panel_title), gp_quote(ylabel));
  for (std::size_t i = 0; i < series.size(); ++i) text += (i > 0 ? ", \\\n     " : "") + series[i];
  return text + "\n";
}

// A cloud volume's budget (system.csv's vol_* columns, present only on a
// throttled volume): the operations it counted on the left axis; on the
// right, the milliseconds of each interval in which a request waited for a
// bucket and the burst balance in percent.
std::string volume_panel(std::string_view system_csv, const std::vector<std::string>& header) {
  for (std::string_view column : {"vol_iops", "vol_throttled_ms", "vol_burst_balance_pct"}) {
    if (!has(header, column)) return {};
  }
  return fmt::format(
      "set title 'cloud volume: operations as the provider counts them, time held by its limits'\n"
      "set ylabel 'IOPS'\nset y2label 'throttled ms per interval, burst balance %'\nset y2tics\n"
      "set y2range [0:*]\nplot {}, \\\n     {} axes x1y2, \\\n     {} axes x1y2\n"
      "unset y2tics\nunset y2label\n",
      series_of(system_csv, "vol_iops", "vol_iops"), series_of(system_csv, "vol_throttled_ms", "vol_throttled_ms"),
      series_of(system_csv, "vol_burst_balance_pct", "vol_burst_balance_pct"));
}

// blk-throttle (system.csv's blkthrotl_* columns, present only on a limited
// device): bios waiting in its FIFO on the left axis; on the right, the
// milliseconds they waited in each interval, summed over bios.
std::string blk_throttle_panel(std::string_view system_csv, const std::vector<std::string>& header) {
  std::string queued, waited;
  for (std::string_view prefix : {"", "wal_"}) {
    const std::string q = std::string(prefix) + "blkthrotl_queued", w = std::string(prefix) + "blkthrotl_wait_ms";
    if (!has(header, q) || !has(header, w)) continue;
    queued += (queued.empty() ? "" : ", \\\n     ") + series_of(system_csv, q, q);
    waited += ", \\\n     " + series_of(system_csv, w, w) + " axes x1y2";
  }
  if (queued.empty()) return {};
  return fmt::format(
      "set title 'blk-throttle: bios held by the cgroup limit, and their wait'\n"
      "set ylabel 'bios queued'\nset y2label 'bio-ms waited per interval'\nset y2tics\n"
      "set y2range [0:*]\nplot {}{}\n"
      "unset y2tics\nunset y2label\n",
      queued, waited);
}

// The wait-event panel: average active sessions per wait event (seconds of
// backend time per second) as a stacked area, CPU at the bottom, as database
// tools draw it. Idle sessions (Client:ClientRead) are not active and are left
// out, and so are events that never occurred in the run.
std::string waits_panel(const std::filesystem::path& folder, std::string_view waits_name) {
  const std::filesystem::path waits_csv = folder / waits_name;
  const CsvTable waits = read_csv(waits_csv);
  if (waits.column("time_s") != 0 || waits.rows.empty()) return {};
  std::vector<std::string> stack;
  for (std::size_t c = 1; c < waits.header.size(); ++c) {
    if (waits.header[c] == "Client:ClientRead") continue;
    double total = 0;
    for (const auto& row : waits.rows) total += std::strtod(row[c].c_str(), nullptr);
    if (total > 0) stack.push_back(waits.header[c]);
  }
  if (stack.empty()) return {};
  // The first row's time_s is the interval length (rows count from 0).
  std::string text = fmt::format(
      "set title 'wait events: average active sessions (Client:ClientRead left out)'\n"
      "set ylabel 'sessions'\nset key outside below horizontal\n"
      "stats {} using (column(\"time_s\")) every ::0::0 nooutput\niv = STATS_min\nplot ",
      gp_quote(waits_name));
  std::string sum;
  std::vector<std::string> layers;
  for (const std::string& column : stack) {
    if (!sum.empty()) sum += '+';
    sum += fmt::format("column(\"{}\")", column);
    layers.push_back(fmt::format("{} using (column(\"time_s\")):(({})/iv) with filledcurves x1 title {}",
                                 gp_quote(waits_name), sum, gp_quote(column)));
  }
  // Tallest first, so that each smaller sum is drawn over it.
  for (std::size_t i = layers.size(); i-- > 0;) text += layers[i] + (i > 0 ? ", \\\n     " : "\n");
  return text + "set key default\nset key autotitle columnhead\n";
}

// The checkpoints of a run as shading behind every later plot of the script:
// the write phase light, the sync phase darker, a dashed line and its cause
// at each start. A checkpoint still running at the run's end is shaded to the
// right edge. Nothing when the run has no checkpoints.csv.
std::string checkpoint_shading(const std::filesystem::path& checkpoints_csv) {
  std::string text = "unset object\nunset arrow\nunset label\n";
  if (!std::filesystem::exists(checkpoints_csv)) return text;
  const CsvTable ckpts = read_csv(checkpoints_csv);
  const std::size_t start = ckpts.column("start_s"), write_end = ckpts.column("write_end_s"),
                    sync_end = ckpts.column("sync_end_s"), cause = ckpts.column("cause");
  int object = 0;
  for (const auto& row : ckpts.rows) {
    const std::string to_write = row[write_end].empty() ? "graph 1" : "first " + row[write_end];
    text += fmt::format(
        "set object {} rect from first {}, graph 0 to {}, graph 1 behind fc rgb '#fde6c4' "
        "fs solid 1.0 noborder\n",
        ++object, row[start], to_write);
    if (!row[write_end].empty()) {  // the sync phase, to the right edge while it still runs
      const std::string to_sync = row[sync_end].empty() ? "graph 1" : "first " + row[sync_end];
      text += fmt::format(
          "set object {} rect from first {}, graph 0 to {}, graph 1 behind fc rgb '#f4a582' "
          "fs solid 1.0 noborder\n",
          ++object, row[write_end], to_sync);
    }
    text += fmt::format("set arrow from first {0}, graph 0 to first {0}, graph 1 nohead dt 2 lc rgb '#b35806'\n",
                        row[start]);
    // Named while they stay readable; beyond a dozen the dashed lines say enough.
    if (ckpts.rows.size() <= 12) {
      text += fmt::format("set label {} at first {}, graph 0.97 offset 0.3,0 left font ',8' tc rgb '#b35806'\n",
                          gp_quote(row[cause].empty() ? std::string("ckpt") : "ckpt " + row[cause]), row[start]);
    }
  }
  return text;
}

// The intervals of progress.csv with no transaction (tps 0), consecutive ones
// merged, as (start, end) times: an interval starts at the row before's time_s.
std::vector<std::pair<std::string, std::string>> empty_intervals(const std::filesystem::path& progress_csv) {
  std::vector<std::pair<std::string, std::string>> spans;
  const CsvTable table = read_csv(progress_csv);
  const int time = table.column("time_s"), tps = table.column("tps");
  if (time < 0 || tps < 0) return spans;
  std::string previous = "0";
  bool open = false;
  for (const auto& row : table.rows) {
    const std::string& t = row[static_cast<std::size_t>(time)];
    const bool empty = std::strtod(row[static_cast<std::size_t>(tps)].c_str(), nullptr) == 0.0;
    if (empty && open) spans.back().second = t;
    if (empty && !open) spans.emplace_back(previous, t);
    open = empty;
    previous = t;
  }
  return spans;
}

// p50 / p99 / max latency of each interval on a log scale: where a stall shows
// as seconds. An interval without a transaction has no latency: its points are
// NaN, so the lines break there rather than join across it (a point marks
// each interval, so one between two gaps still shows), and a red strip
// along the x axis marks it (objects numbered from kGapObject, removed after
// this panel so the other panels keep only the checkpoint shading), with a
// legend entry (keyentry: gnuplot 5.2.8+).
std::string latency_panel(const std::vector<std::string>& progress_header, const std::filesystem::path& folder,
                          std::string_view progress_name) {
  constexpr int kGapObject = 100000;
  std::vector<std::string> series;
  for (std::string_view column : {"latency_p50_ms", "latency_p99_ms", "latency_max_ms"}) {
    if (!has(progress_header, column)) continue;
    series.push_back(
        fmt::format("{} using (column(\"time_s\")):(column(\"tps\") > 0 ? "
                    "column(\"{}\") : NaN) with linespoints lw 1 pt 7 ps 0.3 title {}",
                    gp_quote(progress_name), column, gp_quote(column.substr(8))));
  }
  if (series.empty()) return {};
  std::string text =
      "set title 'transaction latency per interval (log scale)'\nset ylabel 'ms'\n"
      "set logscale y\nset yrange [*:*]\n";
  const auto gaps = empty_intervals(folder / progress_name);
  for (std::size_t i = 0; i < gaps.size(); ++i) {
    text += fmt::format(
        "set object {} rect from first {}, graph 0 to first {}, graph 0.04 front fc rgb '#d7301f' "
        "fs solid 1.0 noborder  # no transaction\n",
        kGapObject + i, gaps[i].first, gaps[i].second);
  }
  if (!gaps.empty()) {
    series.push_back("keyentry with boxes fc rgb '#d7301f' fs solid 1.0 noborder title 'no transaction'");
  }
  text += "plot ";
  for (std::size_t i = 0; i < series.size(); ++i) text += (i > 0 ? ", \\\n     " : "") + series[i];
  text += "\nunset logscale y\nset yrange [0:*]\n";
  for (std::size_t i = 0; i < gaps.size(); ++i) text += fmt::format("unset object {}\n", kGapObject + i);
  return text;
}

// p relative to folder when it lies below it, so the script does not carry this machine's paths.
std::string relative_to(const std::filesystem::path& p, const std::filesystem::path& folder) {
  const auto rel = std::filesystem::absolute(p).lexically_normal().lexically_relative(
      std::filesystem::absolute(folder).lexically_normal());
  return rel.empty() ? p.string() : rel.generic_string();
}

}  // namespace

bool gnuplot_available() {
  static const bool available = std::system("gnuplot --version >/dev/null 2>&1") == 0;
  return available;
}

std::string plot_run(const std::filesystem::path& run_dir, const std::string& title, const RunPlotNames& names) {
  const CsvTable table = read_csv(run_dir / names.progress);
  const auto& progress = table.header;
  for (std::string_view column : {"time_s", "tps"}) {
    if (!has(progress, column)) {
      throw std::runtime_error(fmt::format("{}:1: no column \"{}\"", (run_dir / names.progress).string(), column));
    }
  }
  // Nothing to draw is no error of the run: gnuplot would fail on an empty
  // file, or on a latency panel of no value (its log scale has no 0).
  if (table.rows.empty()) return names.progress + " has no interval (the run ended inside its first -P interval)";
  const std::size_t tps = static_cast<std::size_t>(table.column("tps"));
  if (std::all_of(table.rows.begin(), table.rows.end(),
                  [tps](const auto& row) { return std::strtod(row[tps].c_str(), nullptr) == 0; }))
    return fmt::format("no transaction completed in any interval ({}: tps 0 throughout)", names.progress);
  std::vector<std::string> outputs = {names.tps_png, names.tps_svg};

  std::string memory_panel, queue_panel, await_panel, volume, throttle, wait_panel;
  const std::string latency = latency_panel(progress, run_dir, names.progress);
  if (std::filesystem::exists(run_dir / names.waits)) wait_panel = waits_panel(run_dir, names.waits);
  const auto system_csv = run_dir / names.system;
  if (std::filesystem::exists(system_csv)) {
    const auto header = read_csv_header(system_csv);
    if (has(header, "time_s")) {
      memory_panel = system_panel(names.system, header, {"dirty_mb", "writeback_mb"}, "page cache", "MB");
      queue_panel = system_panel(names.system, header, {"data_aqu_sz", "wal_aqu_sz"}, "disk queue", "aqu-sz");
      await_panel =
          system_panel(names.system, header, {"data_r_await", "data_w_await", "wal_w_await"}, "disk awaits", "ms");
      volume = volume_panel(names.system, header);
      throttle = blk_throttle_panel(names.system, header);
    }
  }
  const bool system_plot = !latency.empty() || !memory_panel.empty() || !queue_panel.empty() || !wait_panel.empty();
  if (system_plot) outputs.push_back(names.system_png);

  std::string script = preamble(names.script, "tps over time of one run", fmt::format("{}", fmt::join(outputs, ", ")));
  script += fmt::format("set title {}\n\n", gp_quote(title));
  script += "# Checkpoints: write phase light, sync phase dark, each start dashed.\n" +
            checkpoint_shading(run_dir / names.checkpoints) + "\n";
  script += terminal("pngcairo", kHeight, names.tps_png);
  script += "plot " + series_of(names.progress, "tps", "") + "\n\n";
  script += terminal("svg", kHeight, names.tps_svg);
  script += "replot\nunset output\n";
  if (system_plot) {
    const int panels = 1 + !latency.empty() + !memory_panel.empty() + !queue_panel.empty() + !await_panel.empty() +
                       !volume.empty() + !throttle.empty() + !wait_panel.empty();
    script += "\n# tps above what the kernel and the disk were doing at the same time.\n";
    script += terminal("pngcairo", kPanelHeight * panels, names.system_png);
    // The volume panel's right axis takes room: every panel keeps the same x scale.
    if (!volume.empty() || !throttle.empty()) script += "set rmargin 10\n";
    script += fmt::format("set multiplot layout {},1 title {}\n", panels, gp_quote(title));
    script += "set title 'tps'\nset ylabel 'tps'\nplot " + series_of(names.progress, "tps", "") + "\n";
    script += "unset label\n";  // the causes once, in the tps panel
    script += latency + memory_panel + queue_panel + await_panel + volume + throttle + wait_panel;
    script += "unset multiplot\nunset output\n";
    if (!volume.empty() || !throttle.empty()) script += "unset rmargin\n";
  }
  write_file_atomically(run_dir / names.script, script);
  if (gnuplot_available()) render(run_dir, names.script, outputs);
  return {};
}

namespace {

// The overlay's plot commands: every point's tps thin and its moving average bold, its
// height in `height`.
std::string grid_overlay(const std::vector<PlotSeries>& points, const std::vector<std::string>& files,
                         const std::string& title, int& height) {
  // At most kOverlayLines lines to a panel: beyond that the colours repeat and
  // no line can be followed, so the points are dealt into panels stacked on
  // shared axes (small multiples of overlays), each with its own key.
  const std::size_t panels = (points.size() + kOverlayLines - 1) / kOverlayLines;
  const std::size_t per_panel = (points.size() + panels - 1) / panels;
  height = static_cast<int>(panels) * (kHeight + 18 * static_cast<int>(per_panel));
  std::string overlay;
  if (panels > 1) {
    overlay += "stats_x = 0\n";
    for (const std::string& file : files) {
      overlay += fmt::format("stats {} using (column(\"time_s\")):(column(\"tps\")) nooutput\n", gp_quote(file));
      overlay +=
          "stats_x = STATS_max_x > stats_x ? STATS_max_x : stats_x\nstats_y = STATS_max_y > stats_y ? "
          "STATS_max_y : stats_y\n";
    }
    overlay = "stats_y = 0\n" + overlay + "set xrange [0:stats_x]\nset yrange [0:stats_y * 1.05 + 1]\n";
    overlay += fmt::format("set multiplot layout {},1 title {}\n", panels, gp_quote(title));
  }
  for (std::size_t first = 0; first < points.size(); first += per_panel) {
    const std::size_t last = std::min(points.size(), first + per_panel);
    if (panels > 1) overlay += fmt::format("set title 'points {} to {} of {}'\n", first + 1, last, points.size());
    overlay += "plot ";
    for (std::size_t i = first; i < last; ++i) {
      overlay += fmt::format(
          "{}{} using (column(\"time_s\")):(column(\"tps\")) with lines lw 0.5 lc {} notitle, \\\n"
          "     {} using (column(\"time_s\")):(ema(column(\"tps\"))) with lines lw 2.5 lc {} title {}",
          i > first ? ", \\\n     " : "", gp_quote(files[i]), i - first + 1, gp_quote(files[i]), i - first + 1,
          gp_quote(panels > 1 ? fmt::format("{}  {}", i + 1, points[i].title) : points[i].title));
    }
    overlay += "\n";
  }
  if (panels > 1) overlay += "unset multiplot\nset xrange [*:*]\nset yrange [0:*]\nset title " + gp_quote(title) + "\n";
  return overlay;
}

// Small multiples: one panel per point.
std::string grid_small_multiples(const std::vector<PlotSeries>& points, const std::vector<std::string>& files,
                                 const std::string& title, const GridPlotNames& names) {
  std::string script =
      "# Small multiples: one panel per point, two columns, on shared axes so that they compare at a glance.\n";
  script += "xmax = 0\nymax = 0\n";
  for (const std::string& file : files) {
    script += fmt::format("stats {} using (column(\"time_s\")):(column(\"tps\")) nooutput\n", gp_quote(file));
    script += "xmax = STATS_max_x > xmax ? STATS_max_x : xmax\n";
    script += "ymax = STATS_max_y > ymax ? STATS_max_y : ymax\n";
  }
  const int columns = points.size() > 1 ? 2 : 1;
  const int rows = static_cast<int>((points.size() + 1) / static_cast<std::size_t>(columns));
  script += "set xrange [0:xmax]\nset yrange [0:ymax * 1.05 + 1]\n";
  script += terminal("pngcairo", kGridPanelHeight * rows + 40, names.grid_png);
  script += fmt::format("set multiplot layout {},{} title {}\n", rows, columns, gp_quote(title));
  for (std::size_t i = 0; i < points.size(); ++i) {
    script += checkpoint_shading(points[i].csv.parent_path() / names.checkpoints);
    script += fmt::format("set title {}\nplot {}\n", gp_quote(points[i].title), series_of(files[i], "tps", ""));
  }
  script += "unset multiplot\nunset output\nunset object\nunset arrow\nunset label\nset xrange [*:*]\n";
  return script;
}

// The grid's stability figures as bar charts (every point has them).
std::string grid_stability_bars(const std::vector<PlotSeries>& points, const std::string& title,
                                const GridPlotNames& names) {
  // Many bars: numbered, the names listed beside the charts, so that no
  // two labels collide however long the names.
  const bool numbered = points.size() > kNamedBars;
  std::string script = "\n# The grid's stability figures, one bar per point.\n$stability << EOD\n";
  std::string legend;  // "1  name\n2  name...", a gnuplot double-quoted string
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PlotSeries& p = points[i];
    std::string label = numbered ? std::to_string(i + 1) : p.title;  // a datablock field in double quotes
    std::replace(label.begin(), label.end(), '"', '\'');
    script += fmt::format("\"{}\" {} {} {}\n", label, p.stability->tps_mean, p.stability->tps_stddev,
                          p.stability->pct_below_threshold);
    std::string name;
    for (char c : p.title) name += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    legend += fmt::format("{}{}  {}", i > 0 ? "\\n" : "", i + 1, name);
  }
  script += "EOD\n";
  const int bars_height = std::max(2 * kGridPanelHeight + 160, 14 * static_cast<int>(points.size()) + 160);
  if (numbered) {
    script += fmt::format("set terminal pngcairo size {},{} noenhanced\nset output \"{}\".suffix\n", 2 * kWidth,
                          bars_height, names.stability_png);
    script += fmt::format(
        "set rmargin at screen 0.55\nset label 1000 \"{}\" at screen 0.57, screen 0.94 left "
        "font ',8' noenhanced\n",
        legend);
  } else {
    script += terminal("pngcairo", bars_height, names.stability_png);
  }
  script += fmt::format(
      "set datafile separator whitespace\nset key noautotitle\n"  // the first row is data, not a header
      "set multiplot layout 2,1 title {}\nset style fill solid 0.6 border -1\nset boxwidth 0.6\n"
      "set xrange [-0.6:{}]\nset yrange [0:*]\nset xlabel ''\n{}\n"
      "set title 'tps mean ± stddev over the intervals'\nset ylabel 'tps'\n"
      "plot $stability using 0:2:3:xtic(1) with boxerrorbars notitle\n"
      "unset label 1000\n"
      "set title sprintf('percent of intervals below %g tps', {})\nset ylabel '%'\nset yrange [0:100]\n"
      "plot $stability using 0:4:xtic(1) with boxes notitle\n"
      "unset multiplot\nunset output\nunset rmargin\nset datafile separator \",\"\nset key autotitle columnhead\n",
      gp_quote(title), static_cast<double>(points.size()) - 0.4,
      numbered ? "set xtics norotate noenhanced font ',9'\nset xlabel 'point (numbered as listed on the right)'"
               : "set xtics rotate by -15 left noenhanced font ',9'",
      points.front().stability->threshold);
  return script;
}

}  // namespace

void plot_grid(const std::filesystem::path& grid_dir, const std::vector<PlotSeries>& points, const std::string& title,
               const GridPlotNames& names) {
  if (points.empty()) return;
  std::vector<std::string> files;
  for (const PlotSeries& p : points) files.push_back(relative_to(p.csv, grid_dir));
  const bool bars = std::all_of(points.begin(), points.end(), [](const PlotSeries& p) { return p.stability; });
  std::vector<std::string> outputs = {names.overlay_png, names.overlay_svg, names.grid_png};
  if (bars) outputs.push_back(names.stability_png);

  std::string script =
      preamble(names.script, "tps over time of every point of a grid", fmt::format("{}", fmt::join(outputs, ", ")));
  script += fmt::format("set title {}\n\n", gp_quote(title));
  script +=
      "# The overlay: each point's tps thin, and bold its exponential moving average over\n"
      "# ma_span intervals (gnuplot -e 'ma_span=1' " +
      names.script +
      " draws the raw lines only).\n"
      "if (!exists(\"ma_span\")) ma_span = 10\n"
      "ma_a = ma_span > 1 ? 2.0 / (ma_span + 1) : 1\n"
      "ema(x) = (ema_v = column(0) == 0 ? x : ma_a * x + (1 - ma_a) * ema_v, ema_v)\n"
      "set key outside below vertical maxcols 1 font ',9'\n";  // one column: long point names fit
  int overlay_height = 0;
  const std::string overlay = grid_overlay(points, files, title, overlay_height);
  script += terminal("pngcairo", overlay_height, names.overlay_png) + overlay;
  script += '\n';  // apart, not "\n" + ...: GCC 12 sees a false -Wrestrict overlap in that once inlined
  script += terminal("svg", overlay_height, names.overlay_svg) + overlay;
  script += "unset output\nset key default\nset key autotitle columnhead\n\n";

  script += grid_small_multiples(points, files, title, names);

  if (bars) script += grid_stability_bars(points, title, names);
  write_file_atomically(grid_dir / names.script, script);
  if (gnuplot_available()) render(grid_dir, names.script, outputs);
}

void plot_compare(const std::filesystem::path& out_dir, const CompareSeries& real, const CompareSeries& simulated,
                  const std::filesystem::path& simulated_checkpoints, const std::string& title,
                  const ComparePlotNames& names) {
  const std::vector<std::string> outputs = {names.png, names.svg};
  std::string script =
      preamble(names.script, "a real run's tps beside a simulated one's", fmt::format("{}", fmt::join(outputs, ", ")));
  script += "set datafile separator whitespace\nset key noautotitle  # the first row is data, not a header\n";
  for (const auto& [block, series] : {std::pair{"$real", &real}, std::pair{"$simulated", &simulated}}) {
    script += fmt::format("{} << EOD\n", block);
    for (std::size_t i = 0; i < series->tps.size(); ++i) {
      script += fmt::format("{:g} {:g}\n", static_cast<double>(i + 1) * series->interval_s, series->tps[i]);
    }
    script += "EOD\n";
  }
  script += fmt::format("set title {}\nset key outside below vertical\n\n", gp_quote(title));
  script += "# The simulated run's checkpoints: write phase light, sync phase dark, each start dashed.\n" +
            checkpoint_shading(simulated_checkpoints) + "\n";
  const std::string plot = fmt::format(
      "plot $real using 1:2 with lines lw 1.5 lc rgb '#2166ac' title {}, \\\n"
      "     $simulated using 1:2 with lines lw 1.5 lc rgb '#b2182b' title {}\n",
      gp_quote(real.title), gp_quote(simulated.title));
  script += terminal("pngcairo", kHeight + 60, names.png) + plot + "\n";
  script += terminal("svg", kHeight + 60, names.svg) + "replot\nunset output\n";
  write_file_atomically(out_dir / names.script, script);
  if (gnuplot_available()) render(out_dir, names.script, outputs);
}

}  // namespace ckptsim::analysis
