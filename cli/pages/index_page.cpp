// index.html: the grids, then every run with its key settings and figures.
#include <fmt/format.h>

#include "cli/folder/printable.h"
#include "cli/pages/index_columns.h"
#include "cli/pages/index_layout.h"
#include "cli/pages/index_pages.h"
#include "cli/pages/index_sections.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;

namespace {

// "complete", "stopped" (summary.json says so) or "running" (no summary.json yet).
std::string state_of(const RunEntry& run) {
  if (run.complete()) return "complete";
  return run.summary.is_object() ? "stopped" : "running";
}

// The folder's name as a title: "results" for /home/me/results/.
std::string name_of(const fs::path& root) {
  const fs::path absolute = fs::absolute(root).lexically_normal();
  const fs::path name = absolute.has_filename() ? absolute.filename() : absolute.parent_path().filename();
  return name.empty() ? absolute.string() : name.string();
}

void grids_table(Page& page, const ResultsTree& tree) {
  html::Writer& w = page.body();
  w.element("h2", fmt::format("Grids ({})", tree.grids.size()));
  if (tree.grids.empty()) return;
  w.open("table", {{"class", "sortable"}, {"id", "grids"}}).open("thead").open("tr");
  for (const char* name : {"grid", "title", "varied", "points"}) w.element("th", name);
  w.close("tr").close("thead").open("tbody");
  for (const GridEntry& grid : tree.grids) {
    w.open("tr").open("td");
    page.link(grid_page(grid), grid.id());
    w.close("td").element("td", grid.title);
    std::string varied;
    for (const std::string& path : grid.grid_paths) varied += (varied.empty() ? "" : ", ") + path;
    if (grid.chained) varied += " (chained)";
    w.element("td", varied);
    sortable_cell(w, std::to_string(grid.runs.size()), static_cast<double>(grid.runs.size()));
    w.close("tr");
  }
  w.close("tbody").close("table");
}

void runs_table(Page& page, const ResultsTree& tree) {
  html::Writer& w = page.body();
  w.element("h2", fmt::format("Runs ({})", tree.runs.size()));
  w.element("p", "Click a column's header to sort by it; again to reverse.", {{"class", "muted"}});
  w.open("div", {{"class", "wide"}}).open("table", {{"class", "sortable"}, {"id", "runs"}}).open("thead").open("tr");
  w.element("th", "run").element("th", "grid");
  for (const IndexColumn& column : index_columns()) {
    w.open("th").breakable_text(column.label);
    if (!column.unit.empty()) w.text(fmt::format(" ({})", column.unit));
    w.close("th");
  }
  w.element("th", "state").element("th", "compare");
  w.close("tr").close("thead").open("tbody");
  for (const RunEntry& run : tree.runs) {
    w.open("tr").open("td", {{"class", "run"}}).open("a", {{"href", page.href(run_page(run))}});
    w.breakable_text(run.id()).close("a").close("td").open("td");
    if (run.grid) page.link(grid_page(tree.grids[*run.grid]), tree.grids[*run.grid].id());
    w.close("td");
    for (const IndexColumn& column : index_columns())
      sortable_cell(w, cell_text(run, column), cell_number(run, column));
    w.element("td", state_of(run)).open("td");
    w.element("a", "compare", {{"href", page.href(compare_page()) + "?a=" + html::url_of(run.id())}});
    w.close("td").close("tr");
  }
  w.close("tbody").close("table").close("div");
}

}  // namespace

std::string index_html(const ResultsTree& tree) {
  Page page(index_page(), "ckptsim results: " + name_of(tree.root));
  page.body().element("p", fmt::format("{} and {} under this folder. Each run's and grid's name opens its "
                                       "page; Compare sets any two side by side.",
                                       counted(tree.runs.size(), "run", "runs"),
                                       counted(tree.grids.size(), "grid", "grids")));
  grids_table(page, tree);
  runs_table(page, tree);
  sort_script(page);
  return page.finish();
}

}  // namespace ckptsim::cli
