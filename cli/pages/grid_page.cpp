// grid.html: a grid's summary.csv as a table linked to its points (for a grid
// over checkpoint sorting and flushing, the E1 thread's table before it), its
// plots and report.txt.
#include <algorithm>

#include <fmt/format.h>

#include "analysis/report.h"
#include "analysis/sort_flush_table.h"
#include "cli/folder/run_files.h"
#include "cli/pages/index_layout.h"
#include "cli/pages/index_pages.h"
#include "cli/pages/index_sections.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// The E1 thread's table (analysis/sort_flush_table.h), from summary.csv's rows:
// nothing for another grid, or a summary.csv that cannot be read (its own
// section says why).
void sort_flush_section(Page& page, const fs::path& summary_csv) {
  std::optional<analysis::SortFlushTable> table;
  try {
    const analysis::SummaryCsv summary = analysis::read_summary_csv(summary_csv);
    if (!summary.rows.empty())
      table = analysis::sort_flush_table(summary.grid_columns, summary.rows, summary.rows.front().stability.threshold);
  } catch (const std::exception&) {
    return;
  }
  if (!table) return;
  html::Writer& w = page.body();
  w.element("h2", "Sorting and flushing");
  w.element("p", table->caption);
  w.open("table", {{"id", "sort-flush"}}).open("thead").open("tr");
  w.element("th", "sort / flush");
  for (const std::string& t : table->test_types) w.element("th", t);
  w.close("tr").close("thead").open("tbody");
  for (std::size_t r = 0; r < table->combinations.size(); ++r) {
    w.open("tr").element("th", table->combinations[r]);
    for (const std::string& cell : table->cells[r]) w.element("td", cell, {{"class", "num"}});
    w.close("tr");
  }
  w.close("tbody").close("table");
  if (!table->note.empty()) w.element("p", table->note, {{"class", "muted"}});
}

}  // namespace

std::string grid_html(const ResultsTree& tree, const GridEntry& grid) {
  Page page(grid_page(grid), "Grid " + grid.title);
  html::Writer& w = page.body();
  w.open("p").text(fmt::format("Folder {}: {} points", grid.id(), grid.runs.size()));
  if (!grid.grid_paths.empty()) {
    std::string varied;
    for (const std::string& path : grid.grid_paths) varied += (varied.empty() ? "" : ", ") + path;
    w.text(", varying " + varied);
  }
  if (grid.chained)
    w.text(", chained: the points ran in this order on one host, each from the state the previous left");
  w.text(". ");
  w.element("a", "Compare it with another grid or a run",
            {{"href", page.href(compare_page()) + "?a=" + html::url_of(grid.id())}});
  w.text(".").close("p");

  // summary.csv has one row per point, in grid.json's order.
  std::vector<fs::path> row_links(grid.points.size());
  for (const std::size_t r : grid.runs) {
    const auto at = std::find(grid.points.begin(), grid.points.end(), tree.runs[r].point);
    row_links[static_cast<std::size_t>(at - grid.points.begin())] = run_page(tree.runs[r]);
  }
  sort_flush_section(page, tree.root / grid.dir / run_files::kSummaryCsv);
  csv_section(page, tree.root, grid.dir / run_files::kSummaryCsv, row_links);

  w.element("h2", "Points");
  w.open("ul");
  for (const std::size_t r : grid.runs) {
    w.open("li");
    page.link(run_page(tree.runs[r]), tree.runs[r].point);
    w.close("li");
  }
  w.close("ul");
  plots_section(page, tree.root, grid.dir);
  text_file_section(page, tree.root, grid.dir / run_files::kReportTxt);
  files_section(page, tree.root, grid.dir);
  sort_script(page);
  return page.finish();
}

}  // namespace ckptsim::cli
