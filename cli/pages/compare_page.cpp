// compare.html: any two runs or grids chosen in two selectors. Every run's
// and grid's settings, figures and per-interval tps are embedded as JSON; a
// plain script shows the settings that differ, the figures side by side and
// the tps overlaid as SVG polylines. A grid stands for its points: its
// settings are those they share (the varied ones listed by value), its
// figures their means, its tps one line per point. compare.html?a=ID&b=ID
// preselects two (the index links each row as ?a=ID). Each item links its
// run's or grid's page by a relative URL that html::url_of percent-encodes
// (':' included, so a folder named "javascript:..." is a path, not a scheme),
// and the script links nothing else.
#include <map>
#include <set>

#include <fmt/format.h>

#include "cli/folder/run_files.h"
#include "cli/pages/assets.h"
#include "cli/pages/index_columns.h"
#include "cli/pages/index_layout.h"
#include "cli/pages/index_pages.h"

namespace ckptsim::cli {

namespace {

// What a grid's points share, and each varied setting as "varies: v1 | v2".
nlohmann::ordered_json shared_settings(const ResultsTree& tree, const GridEntry& grid) {
  std::map<std::string, std::set<std::string>> values;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const std::size_t r : grid.runs) {
    const nlohmann::ordered_json settings = flat_settings(tree.runs[r]);
    for (const auto& [key, value] : settings.items()) {
      if (!out.contains(key)) out[key] = value;
      values[key].insert(value.get<std::string>());
    }
  }
  for (auto& [key, value] : out.items()) {
    const auto& seen = values[key];
    if (seen.size() == 1) continue;
    std::string text = "varies:";
    for (const std::string& v : seen) text += (text.size() > 7 ? " | " : " ") + v;
    value = text;
  }
  return out;
}

nlohmann::ordered_json run_item(const Page& page, const RunEntry& run) {
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    const auto number = cell_number(run, column);
    figures.push_back(number ? nlohmann::ordered_json(*number) : nlohmann::ordered_json());
  }
  nlohmann::ordered_json item = nlohmann::ordered_json::object();
  item["id"] = run.id();
  item["kind"] = "run";
  item["label"] = run.id();
  item["page"] = page.href(run_page(run));
  item["settings"] = flat_settings(run);
  item["figures"] = std::move(figures);
  item["interval"] = run.interval_s;
  item["tps"] = run.tps;
  return item;
}

nlohmann::ordered_json grid_item(const Page& page, const ResultsTree& tree, const GridEntry& grid) {
  nlohmann::ordered_json figures = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    double sum = 0;
    int count = 0;
    for (const std::size_t r : grid.runs) {
      if (const auto number = cell_number(tree.runs[r], column)) {
        sum += *number;
        ++count;
      }
    }
    figures.push_back(count ? nlohmann::ordered_json(sum / count) : nlohmann::ordered_json());
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const std::size_t r : grid.runs) points.push_back(tree.runs[r].id());
  nlohmann::ordered_json item = nlohmann::ordered_json::object();
  item["id"] = grid.id();
  item["kind"] = "grid";
  item["label"] = fmt::format("{} ({}, {} points)", grid.id(), grid.title, grid.runs.size());
  item["page"] = page.href(grid_page(grid));
  item["settings"] = shared_settings(tree, grid);
  item["figures"] = std::move(figures);
  item["points"] = std::move(points);
  return item;
}

}  // namespace

std::string compare_html(const ResultsTree& tree) {
  Page page(compare_page(), "Compare two runs or grids");
  nlohmann::ordered_json data = nlohmann::ordered_json::object();
  data["figures"] = nlohmann::ordered_json::array();
  data["items"] = nlohmann::ordered_json::array();
  for (const IndexColumn& column : index_columns()) {
    if (!column.figure()) continue;
    nlohmann::ordered_json figure = nlohmann::ordered_json::object();
    figure["label"] = column.label;
    figure["unit"] = column.unit;
    figure["decimals"] = column.decimals;
    data["figures"].push_back(std::move(figure));
  }
  for (const GridEntry& grid : tree.grids) data["items"].push_back(grid_item(page, tree, grid));
  for (const RunEntry& run : tree.runs) data["items"].push_back(run_item(page, run));

  html::Writer& w = page.body();
  w.open("div", {{"id", "compare"}});
  w.open("p").open("label").text("A ").open("select", {{"id", "a"}}).close("select").close("label");
  w.text(" ").open("label").text("B ").open("select", {{"id", "b"}}).close("select").close("label").close("p");
  w.element("p", "", {{"id", "pages"}});
  w.element("h2", "Figures").open("table", {{"id", "figures"}}).close("table");
  w.element("p", "", {{"id", "figures-note"}, {"class", "muted"}});
  w.element("h2", "tps per interval");
  w.open("svg", {{"id", "chart"},
                 {"viewBox", "0 0 1200 420"},
                 {"width", "100%"},
                 {"xmlns", "http://www.w3.org/2000/svg"},
                 {"role", "img"},
                 {"aria-label", "tps of A and B"}})
      .close("svg");
  w.open("ul", {{"id", "legend"}}).close("ul");
  w.element("h2", "Settings that differ");
  w.element("p", "", {{"id", "settings-note"}, {"class", "muted"}});
  w.open("table", {{"id", "settings"}}).close("table");
  w.close("div");
  w.raw_text("script", html::json_for_script(data), {{"type", "application/json"}, {"id", "compare-data"}});
  // The script names the run folder's file of tps by a placeholder, so that only cli/folder/run_files.h spells it.
  std::string script(assets::compare_js);
  const std::string_view placeholder = "@PROGRESS_CSV@";
  script.replace(script.find(placeholder), placeholder.size(), run_files::kProgressCsv);
  w.raw_block("script", script);
  return page.finish();
}

}  // namespace ckptsim::cli
