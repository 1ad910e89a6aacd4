#include "cli/pages/index_sections.h"

#include <algorithm>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "analysis/csv.h"
#include "analysis/regular_file.h"
#include "cli/folder/run_files.h"
#include "cli/pages/assets.h"
#include "scenarios/units.h"

namespace ckptsim::cli {

namespace fs = std::filesystem;
using namespace run_files;

namespace {

// The regular files of root/dir, by name; AtomicFile's temporaries and the
// run's lock (cli/folder/output_lock.h, gone when the run ends) left out.
std::vector<std::string> files_of(const fs::path& root, const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && !is_temporary_name(name) && name != kOutputLock) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "812 B", "9.8 kB", "13.4 MB": a size to read, not to parse.
std::string readable_size(std::uintmax_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  if (bytes < 1024 * 1024) return fmt::format("{:.1f} kB", static_cast<double>(bytes) / 1024);
  return fmt::format("{:.1f} MB", static_cast<double>(bytes) / (1024 * 1024));
}

}  // namespace

void plots_section(Page& page, const fs::path& root, const fs::path& dir) {
  html::Writer& w = page.body();
  w.element("h2", "Plots");
  std::vector<std::string> names = files_of(root, dir);
  const std::set<std::string> present(names.begin(), names.end());
  // tps first: the plot every reader opens a run or grid for.
  std::stable_partition(names.begin(), names.end(),
                        [](const std::string& name) { return name.starts_with(kTpsPlotPrefix); });
  int shown = 0;
  for (const std::string& name : names) {
    const fs::path file(name);
    const bool png = file.extension() == kPngExtension;
    const std::string svg = file.stem().string() + kSvgExtension;
    if (!png && (file.extension() != kSvgExtension || present.contains(file.stem().string() + kPngExtension))) continue;
    ++shown;
    w.open("figure").empty("img", {{"class", "plot"}, {"src", page.href(dir / name)}, {"alt", name}});
    w.open("figcaption").text(name);
    if (png && present.contains(svg)) {
      w.text(" (");
      page.link(dir / svg, "SVG");
      w.text(")");
    }
    w.close("figcaption").close("figure");
  }
  if (shown == 0)
    w.element("p", "none (gnuplot was not found when the run ended, or it was stopped)", {{"class", "muted"}});
}

void text_file_section(Page& page, const fs::path& root, const fs::path& file, std::size_t limit) {
  html::Writer& w = page.body();
  w.open("h2");
  page.link(file, file.filename().string());
  w.close("h2");
  // Not a FIFO (its open would block) nor a device: only a regular file is read.
  const auto head = analysis::read_regular_file(root / file, limit);
  if (!head) {
    w.element("p", "missing (or not a regular file)", {{"class", "muted"}});
    return;
  }
  const auto& [text, cut] = *head;
  if (text.empty()) {
    w.element("p", "(empty)", {{"class", "muted"}});
    return;
  }
  w.element("pre", text);
  if (cut)
    w.element("p", fmt::format("the first {} of the file; the link above opens all of it", readable_size(limit)),
              {{"class", "muted"}});
}

void csv_section(Page& page, const fs::path& root, const fs::path& file, const std::vector<fs::path>& row_links) {
  html::Writer& w = page.body();
  w.open("h2");
  page.link(file, file.filename().string());
  w.close("h2");
  analysis::CsvTable table;
  try {
    table = analysis::read_csv(root / file);
  } catch (const std::exception& e) {
    w.element("p", e.what(), {{"class", "muted"}});
    return;
  }
  w.open("table", {{"class", "sortable"}, {"id", file.stem().string()}}).open("thead").open("tr");
  for (const std::string& name : table.header) w.element("th", name);
  w.close("tr").close("thead").open("tbody");
  // A column is numeric (right-aligned, sorted by value) only when all its cells are numbers.
  std::vector<char> numeric(table.header.size(), 1);
  for (const auto& cells : table.rows) {
    for (std::size_t c = 0; c < cells.size(); ++c)
      numeric[c] = numeric[c] && scenarios::parse_real(scenarios::json(cells[c])).has_value();
  }
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    w.open("tr");
    for (std::size_t c = 0; c < table.rows[r].size(); ++c) {
      const std::string& cell = table.rows[r][c];
      const bool link = c == 0 && r < row_links.size() && !row_links[r].empty();
      const auto number = numeric[c] ? scenarios::parse_real(scenarios::json(cell)) : std::nullopt;
      w.open("td", number ? html::Attributes{{"class", "num"}, {"data-sort", fmt::format("{}", *number)}}
                          : html::Attributes{});
      if (link) {
        page.link(row_links[r], cell);
      } else {
        w.text(cell);
      }
      w.close("td");
    }
    w.close("tr");
  }
  w.close("tbody").close("table");
}

void key_value_table(Page& page, const nlohmann::ordered_json& flat) {
  html::Writer& w = page.body();
  w.open("table").open("tbody");
  for (const auto& [key, value] : flat.items())
    w.open("tr")
        .element("th", key)
        .element("td", value.is_string() ? value.get<std::string>() : value.dump())
        .close("tr");
  w.close("tbody").close("table");
}

void files_section(Page& page, const fs::path& root, const fs::path& dir) {
  html::Writer& w = page.body();
  w.element("h2", "Files");
  w.open("ul");
  for (const std::string& name : files_of(root, dir)) {
    std::error_code ec;
    const auto size = fs::file_size(root / dir / name, ec);
    w.open("li");
    page.link(dir / name, name);
    if (!ec) w.element("span", fmt::format(" {}", readable_size(size)), {{"class", "muted"}});
    w.close("li");
  }
  w.close("ul");
}

void sort_script(Page& page) { page.body().raw_block("script", assets::sort_js); }

void sortable_cell(html::Writer& w, const std::string& text, std::optional<double> number) {
  if (number) {
    w.element("td", text, {{"class", "num"}, {"data-sort", fmt::format("{}", *number)}});
  } else {
    w.element("td", text);
  }
}

}  // namespace ckptsim::cli
