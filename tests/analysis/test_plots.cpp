// tests/analysis/test_plots.cpp: gnuplot scripts (always) and their images (when gnuplot is installed).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/plots.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::read_text;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A PNG starts with \x89PNG; an SVG is XML with an <svg> element.
bool is_png(const std::filesystem::path& p) { return read_text(p).rfind("\x89PNG", 0) == 0; }

void write_progress(const std::filesystem::path& run) {
  std::filesystem::create_directories(run);
  write_text(run / "progress.csv", "time_s,tps,latency_ms\n1,500,2.0\n2,0,1000\n3,620,1.5\n4,610,1.6\n");
}

// ckptsim's names for the files the plots read and draw (cli/folder/run_files.h).
const RunPlotNames kRun = {.script = "plot.gp",
                           .progress = "progress.csv",
                           .system = "system.csv",
                           .waits = "waits.csv",
                           .checkpoints = "checkpoints.csv",
                           .tps_png = "tps.png",
                           .tps_svg = "tps.svg",
                           .system_png = "system.png"};
const GridPlotNames kGrid = {.script = "plot.gp",
                             .checkpoints = "checkpoints.csv",
                             .overlay_png = "tps-overlay.png",
                             .overlay_svg = "tps-overlay.svg",
                             .grid_png = "tps-grid.png",
                             .stability_png = "stability.png"};

}  // namespace

TEST_CASE("a run's plot script reads progress.csv by column name, relative to its folder") {
  ScratchDir dir;
  write_progress(dir.path());
  plot_run(dir.path(), "sort=on flush=256kB (it's E1)", kRun);
  const std::string gp = read_text(dir / "plot.gp");
  CHECK(contains(gp, "set datafile separator \",\""));
  CHECK(contains(gp, "set key autotitle columnhead"));
  CHECK(contains(gp, "'progress.csv' using (column(\"time_s\")):(column(\"tps\")) with lines"));
  CHECK(contains(gp, "set xlabel \"time (s)\""));
  CHECK(contains(gp, "set ylabel \"tps\""));
  CHECK(contains(gp, "set terminal pngcairo size 1200,500"));
  CHECK(contains(gp, "set output \"tps.png\".suffix"));
  CHECK(contains(gp, "set output \"tps.svg\".suffix"));
  CHECK(contains(gp, "'sort=on flush=256kB (it''s E1)'"));  // gnuplot's quote doubling
  CHECK_FALSE(contains(gp, dir.path().string()));           // nothing of this machine
  CHECK_FALSE(contains(gp, "system.csv"));                  // no system.csv, no system plot
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "tps.png"));
  CHECK(contains(read_text(dir / "tps.svg"), "<svg"));
  CHECK_FALSE(std::filesystem::exists(dir / "system.png"));
  // progress.csv, plot.gp, tps.png, tps.svg: no temporaries left behind.
  CHECK(dir.entries() == 4);
}

TEST_CASE("the script is the same text wherever the run folder is") {
  ScratchDir a, b;
  write_progress(a / "run");
  write_progress(b / "elsewhere" / "run");
  plot_run(a / "run", "t", kRun);
  plot_run(b / "elsewhere" / "run", "t", kRun);
  CHECK(read_text(a / "run" / "plot.gp") == read_text(b / "elsewhere" / "run" / "plot.gp"));
}

TEST_CASE("system.png stacks tps over the memory and queue columns that system.csv has") {
  ScratchDir dir;
  write_progress(dir.path());
  // writeback_mb is absent (the OS model may not report it yet): it is skipped.
  write_text(dir / "system.csv", "time_s,dirty_mb,data_aqu_sz,w_s\n1,100,1.5,90\n2,800,64,300\n3,40,2,80\n4,50,1,70\n");
  plot_run(dir.path(), "run", kRun);
  const std::string gp = read_text(dir / "plot.gp");
  CHECK(contains(gp, "set multiplot layout 3,1"));
  CHECK(contains(gp, "'system.csv' using (column(\"time_s\")):(column(\"dirty_mb\"))"));
  CHECK(contains(gp, "'system.csv' using (column(\"time_s\")):(column(\"data_aqu_sz\"))"));
  CHECK_FALSE(contains(gp, "writeback_mb"));
  CHECK(contains(gp, "set output \"system.png\".suffix"));
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "system.png"));
}

TEST_CASE("a system.csv without any plotted column gives no system plot") {
  ScratchDir dir;
  write_progress(dir.path());
  write_text(dir / "system.csv", "time_s,w_s\n1,90\n");
  plot_run(dir.path(), "run", kRun);
  CHECK_FALSE(contains(read_text(dir / "plot.gp"), "system"));
}

TEST_CASE("a progress.csv without a tps column is an error naming the file") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,latency_ms\n1,2\n");
  CHECK_THROWS_WITH_AS(plot_run(dir.path(), "run", kRun), doctest::Contains("progress.csv:1: no column \"tps\""),
                       std::runtime_error);
}

TEST_CASE("a grid's overlay, small multiples and stability bars name each point's files relative to the grid") {
  ScratchDir dir;
  write_progress(dir / "sort=on");
  write_progress(dir / "sort=off");
  write_text(dir / "sort=off" / "checkpoints.csv",
             "start_s,write_end_s,sync_end_s,cause,buffers,distance_kb\n1.500,2.500,3.000,time,10,100\n");
  Stability on, off;
  on.tps_mean = 610;
  off.tps_mean = 155.5;
  off.pct_below_threshold = 61.5;
  off.threshold = on.threshold = 10;
  plot_grid(dir.path(),
            {{"sort=on", dir / "sort=on" / "progress.csv", on}, {"sort=off", dir / "sort=off" / "progress.csv", off}},
            "E1 small", kGrid);
  const std::string gp = read_text(dir / "plot.gp");
  // The overlay: raw lines thin, untitled; each point's moving average bold, titled, the legend below.
  CHECK(contains(gp,
                 "'sort=on/progress.csv' using (column(\"time_s\")):(column(\"tps\")) with lines lw 0.5 lc 1 "
                 "notitle"));
  CHECK(contains(gp,
                 "'sort=off/progress.csv' using (column(\"time_s\")):(ema(column(\"tps\"))) with lines lw 2.5 "
                 "lc 2 title 'sort=off'"));
  CHECK(contains(gp, "set key outside below vertical maxcols 1"));
  CHECK_FALSE(contains(gp, "points 1 to"));  // two points: one overlay panel
  CHECK(contains(gp, "if (!exists(\"ma_span\")) ma_span = 10"));
  CHECK(contains(gp, "set output \"tps-overlay.png\".suffix"));
  CHECK(contains(gp, "set output \"tps-overlay.svg\".suffix"));
  // Small multiples in two columns on shared axes, the second panel shaded with its checkpoint.
  CHECK(contains(gp, "set output \"tps-grid.png\".suffix"));
  CHECK(contains(gp, "set multiplot layout 1,2 title 'E1 small'"));
  CHECK(contains(gp, "stats 'sort=off/progress.csv' using (column(\"time_s\")):(column(\"tps\")) nooutput"));
  CHECK(contains(gp, "set yrange [0:ymax * 1.05 + 1]"));
  CHECK(contains(gp, "set object 1 rect from first 1.500, graph 0 to first 2.500, graph 1 behind"));
  CHECK(contains(gp, "set object 2 rect from first 2.500, graph 0 to first 3.000, graph 1 behind"));
  // The bars: one datablock row per point, in order.
  CHECK(contains(gp, "$stability << EOD\n\"sort=on\" 610 0 0\n\"sort=off\" 155.5 0 61.5\nEOD\n"));
  CHECK(contains(gp, "set output \"stability.png\".suffix"));
  CHECK_FALSE(contains(gp, dir.path().string()));
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "tps-overlay.png"));
  CHECK(contains(read_text(dir / "tps-overlay.svg"), "<svg"));
  CHECK(is_png(dir / "tps-grid.png"));
  CHECK(is_png(dir / "stability.png"));
  CHECK(dir.entries() == 7);  // two point folders, plot.gp, four images
}

TEST_CASE("a run's plots shade its checkpoints and stack latency on a log scale under tps") {
  ScratchDir dir;
  write_text(dir / "progress.csv",
             "time_s,tps,latency_p50_ms,latency_p99_ms,latency_max_ms\n1,500,2,5,9\n2,0,900,2000,2100\n3,620,2,4,8\n");
  write_text(dir / "checkpoints.csv",
             "start_s,write_end_s,sync_end_s,cause,buffers,distance_kb\n"
             "0.500,1.800,2.400,xlog,10,100\n2.900,,,time,0,0\n");
  plot_run(dir.path(), "default: a point", kRun);
  const std::string gp = read_text(dir / "plot.gp");
  CHECK(contains(gp, "set object 1 rect from first 0.500, graph 0 to first 1.800, graph 1 behind fc rgb '#fde6c4'"));
  CHECK(contains(gp, "set object 2 rect from first 1.800, graph 0 to first 2.400, graph 1 behind fc rgb '#f4a582'"));
  CHECK(contains(gp, "set object 3 rect from first 2.900, graph 0 to graph 1, graph 1"));  // still running at the end
  CHECK(contains(gp, "set arrow from first 2.900, graph 0 to first 2.900, graph 1 nohead dt 2"));
  CHECK(contains(gp, "set label 'ckpt xlog' at first 0.500"));
  // The shading comes before the first plot, so it is behind tps.png too.
  CHECK(gp.find("set object 1") < gp.find("set output \"tps.png\""));
  CHECK(contains(gp, "set title 'transaction latency per interval (log scale)'\nset ylabel 'ms'\nset logscale y"));
  CHECK(contains(gp, "set multiplot layout 2,1 title 'default: a point'"));
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "system.png"));
}

TEST_CASE("an empty grid writes nothing") {
  ScratchDir dir;
  plot_grid(dir.path(), {}, "nothing", kGrid);
  CHECK(dir.entries() == 0);
}

TEST_CASE("the latency panel breaks its lines at seconds without a transaction and marks them along the axis") {
  ScratchDir dir;
  // Seconds 2 and 3 (from 1 to 3) and second 5 (from 4 to 5) have no transaction.
  write_text(dir / "progress.csv",
             "time_s,tps,latency_p50_ms,latency_p99_ms,latency_max_ms\n"
             "1,500,2,5,9\n2,0,0,0,0\n3,0,0,0,0\n4,620,2,4,8\n5,0,0,0,0\n6,610,2,4,8\n");
  plot_run(dir.path(), "gaps", kRun);
  const std::string gp = read_text(dir / "plot.gp");
  // No point where there is no latency: the line breaks instead of dropping to 0 or joining.
  CHECK(contains(
      gp, "(column(\"tps\") > 0 ? column(\"latency_p99_ms\") : NaN) with linespoints lw 1 pt 7 ps 0.3 title 'p99_ms'"));
  CHECK(contains(gp, "set object 100000 rect from first 1, graph 0 to first 3, graph 0.04 front fc rgb '#d7301f'"));
  CHECK(contains(gp, "set object 100001 rect from first 4, graph 0 to first 5, graph 0.04 front fc rgb '#d7301f'"));
  CHECK_FALSE(contains(gp, "set object 100002"));
  CHECK(contains(gp, "title 'no transaction'"));
  // Only in the latency panel: removed before the next one.
  CHECK(gp.find("unset object 100001") > gp.find("title 'no transaction'"));
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "system.png"));
}

TEST_CASE("a grid of 20 points: overlays of at most 8 lines each, and bars numbered with the names listed aside") {
  ScratchDir dir;
  std::vector<PlotSeries> points;
  Stability figures;
  figures.tps_mean = 500;
  figures.threshold = 10;
  for (int i = 1; i <= 20; ++i) {
    const std::string name = "checkpoint_flush_after=" + std::to_string(i) + "kB";
    write_progress(dir / name);
    points.push_back({name, dir / name / "progress.csv", figures});
  }
  plot_grid(dir.path(), points, "many", kGrid);
  const std::string gp = read_text(dir / "plot.gp");
  // 20 points in 3 panels of 7, 7 and 6 lines, numbered as the bars are.
  CHECK(contains(gp, "set multiplot layout 3,1 title 'many'\nset title 'points 1 to 7 of 20'"));
  CHECK(contains(gp, "set title 'points 8 to 14 of 20'"));
  CHECK(contains(gp, "set title 'points 15 to 20 of 20'"));
  CHECK(contains(gp, "lc 7 title '7  checkpoint_flush_after=7kB'"));
  CHECK(contains(gp, "lc 1 title '8  checkpoint_flush_after=8kB'"));  // each panel's colours start again
  CHECK_FALSE(contains(gp, "lc 8 title"));
  // The bars carry numbers; the names go in one list beside the charts.
  CHECK(contains(gp, "$stability << EOD\n\"1\" 500 0 0\n\"2\" 500 0 0\n"));
  CHECK(contains(gp, "set label 1000 \"1  checkpoint_flush_after=1kB\\n2  checkpoint_flush_after=2kB\\n"));
  CHECK(contains(gp, "20  checkpoint_flush_after=20kB\" at screen 0.57, screen 0.94"));
  if (!gnuplot_available()) return;
  CHECK(is_png(dir / "tps-overlay.png"));
  CHECK(is_png(dir / "stability.png"));
}
