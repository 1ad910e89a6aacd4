// run.html: one run's settings, figures, plots, pgbench summary, summary.json and postgres.log.
#include <fmt/format.h>

#include "cli/folder/run_files.h"
#include "cli/pages/index_columns.h"
#include "cli/pages/index_layout.h"
#include "cli/pages/index_pages.h"
#include "cli/pages/index_sections.h"

namespace ckptsim::cli {

using namespace run_files;

namespace {

void header(Page& page, const ResultsTree& tree, const RunEntry& run) {
  html::Writer& w = page.body();
  w.open("p");
  if (run.grid) {
    w.text(fmt::format("Point {} of grid ", run.point));
    page.link(grid_page(tree.grids[*run.grid]), tree.grids[*run.grid].title);
    w.text(". ");
  }
  if (!run.complete())
    w.text(run.summary.is_object()
               ? fmt::format("The run was stopped before its end ({}: \"complete\": false). ", kSummaryJson)
               : fmt::format("No {} yet: the run is still going, or was killed. ", kSummaryJson));
  w.element("a", "Compare it with another run", {{"href", page.href(compare_page()) + "?a=" + html::url_of(run.id())}});
  w.text(".").close("p");
}

void columns_table(Page& page, const RunEntry& run) {
  html::Writer& w = page.body();
  w.element("h2", "Key settings and figures");
  w.open("table", {{"id", "key-figures"}}).open("tbody");
  for (const IndexColumn& column : index_columns()) {
    w.open("tr").element("th", column.unit.empty() ? column.label : fmt::format("{} ({})", column.label, column.unit));
    sortable_cell(w, cell_text(run, column), cell_number(run, column));
    w.close("tr");
  }
  w.close("tbody").close("table");
}

// summary.json but its copy of the settings (shown below from run.json) and
// pgbench's summary text (shown as pgbench printed it).
void summary_section(Page& page, const RunEntry& run) {
  html::Writer& w = page.body();
  w.open("h2");
  page.link(run.dir / kSummaryJson, kSummaryJson);
  w.close("h2");
  if (!run.summary.is_object()) {
    w.element("p", "missing or unreadable", {{"class", "muted"}});
    return;
  }
  nlohmann::json figures = run.summary;
  figures.erase("settings");
  if (figures.contains("pgbench") && figures["pgbench"].is_object()) {
    if (figures["pgbench"].value("report", nlohmann::json()).is_string()) {
      w.element("h3", "pgbench's summary").element("pre", figures["pgbench"]["report"].get<std::string>());
    }
    figures["pgbench"].erase("report");
  }
  // The figures a reader looks for first, then the rest (summary.json is read unordered).
  nlohmann::json ordered = nlohmann::json::array();
  for (const char* key : {"complete", "stopped_by", "stability", "pgbench", "pg_stat_bgwriter", "pg_stat_checkpointer",
                          "pg_stat_wal", "pg_stat_database", "checkpoints", "waits"}) {
    if (!figures.contains(key)) continue;
    ordered.push_back({{key, figures[key]}});
    figures.erase(key);
  }
  for (const auto& [key, value] : figures.items()) ordered.push_back({{key, value}});
  w.element("h3", "Figures");
  nlohmann::ordered_json flat = nlohmann::ordered_json::object();
  for (const auto& part : ordered) flat.update(flatten_json(part));
  key_value_table(page, flat);
}

}  // namespace

std::string run_html(const ResultsTree& tree, const RunEntry& run) {
  Page page(run_page(run), "Run " + run.id());
  header(page, tree, run);
  columns_table(page, run);
  plots_section(page, tree.root, run.dir);
  summary_section(page, run);
  text_file_section(page, tree.root, run.dir / kPostgresLog);
  html::Writer& w = page.body();
  w.open("h2");
  page.link(run.dir / kRunRecord, "Settings");
  w.close("h2").open("details").element("summary", fmt::format("every resolved setting of {}", kRunRecord));
  key_value_table(page, flat_settings(run));
  w.close("details");
  files_section(page, tree.root, run.dir);
  return page.finish();
}

}  // namespace ckptsim::cli
