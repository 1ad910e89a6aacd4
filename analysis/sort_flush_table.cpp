#include "analysis/sort_flush_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>

#include "analysis/csv.h"
#include "analysis/text_table.h"

namespace ckptsim::analysis {

namespace {

std::string key_of(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

bool is_on(const std::string& value) { return value == "true" || value == "on" || value == "1"; }

// "0", "0kB", 0: flushing off. A value's leading number decides, its unit does not.
bool is_zero_size(const std::string& value) {
  double number = 1;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  return ec == std::errc() && number == 0;
}

// The figures of one cell: its points' (its repeats') sums.
struct Cell {
  int points = 0;
  double tps_mean = 0, tps_stddev = 0, pct_below = 0, skipped_late = 0;
  void add(const Stability& s) {
    ++points;
    tps_mean += s.tps_mean;
    tps_stddev += s.tps_stddev;
    pct_below += s.pct_below_threshold;
    skipped_late += s.skipped_pct + s.late_pct;
  }
};

// Distinct labels in first-seen order.
void add_label(std::vector<std::string>& labels, const std::string& label) {
  if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
}

using Cells = std::map<std::pair<std::string, std::string>, Cell>;  // by (combination, test type)

// One test type's cells, a row per combination. One width per figure in the
// column, so that its "±" and parentheses line up; a column whose runs skipped
// or were late adds their percentage.
std::vector<std::string> column_cells(const Cells& cells, const std::vector<std::string>& combinations,
                                      const std::string& test_type) {
  const bool rate_limited = std::any_of(cells.begin(), cells.end(), [&](const auto& entry) {
    return entry.first.second == test_type && entry.second.skipped_late > 0;
  });
  std::array<std::size_t, 4> widths{};
  std::vector<std::array<std::string, 4>> parts;
  for (const std::string& combination : combinations) {
    const auto at = cells.find({combination, test_type});
    if (at == cells.end()) {
      parts.push_back({});
      continue;
    }
    const Cell& c = at->second;
    const double n = c.points;
    parts.push_back({format_fixed(c.tps_mean / n, 0), format_fixed(c.tps_stddev / n, 0),
                     format_fixed(c.pct_below / n, 1), format_fixed(c.skipped_late / n, 2)});
    for (std::size_t i = 0; i < widths.size(); ++i) widths[i] = std::max(widths[i], parts.back()[i].size());
  }
  std::vector<std::string> column;
  for (const auto& p : parts) {
    std::string text;
    if (!p[0].empty()) {
      text =
          fmt::format("{} ± {} ({}%)", pad_left(p[0], widths[0]), pad_left(p[1], widths[1]), pad_left(p[2], widths[2]));
      if (rate_limited) text += fmt::format(" {}% skipped+late", pad_left(p[3], widths[3]));
    }
    column.push_back(std::move(text));
  }
  return column;
}

}  // namespace

std::optional<SortFlushTable> sort_flush_table(const std::vector<std::string>& grid_columns,
                                               const std::vector<ReportRow>& rows, double threshold) {
  const auto sort_at = std::find_if(grid_columns.begin(), grid_columns.end(),
                                    [](const std::string& c) { return key_of(c) == "checkpoint_sorting"; });
  const auto flush_at = std::find_if(grid_columns.begin(), grid_columns.end(),
                                     [](const std::string& c) { return key_of(c).ends_with("_flush_after"); });
  if (sort_at == grid_columns.end() || flush_at == grid_columns.end() || rows.empty()) return std::nullopt;
  const auto sort = static_cast<std::size_t>(sort_at - grid_columns.begin());
  const auto flush = static_cast<std::size_t>(flush_at - grid_columns.begin());
  std::vector<std::size_t> others;
  for (std::size_t c = 0; c < grid_columns.size(); ++c) {
    if (c != sort && c != flush) others.push_back(c);
  }

  std::vector<std::string> flush_on;  // the non-zero flush values, in grid order
  for (const ReportRow& r : rows) {
    if (!is_zero_size(r.values.at(flush))) add_label(flush_on, r.values[flush]);
  }
  const bool one_flush_value = flush_on.size() <= 1;
  auto flush_label = [&](const std::string& value) {
    return is_zero_size(value) ? std::string("off") : one_flush_value ? std::string("on") : value;
  };
  auto test_type = [&](const ReportRow& r) {
    if (others.empty()) return std::string("tps");
    // A bundle axis ("test": no section) has named values: the name alone says it.
    if (others.size() == 1 && grid_columns[others[0]].find('.') == std::string::npos) return r.values[others[0]];
    std::string label;
    for (const std::size_t c : others)
      label += fmt::format("{}{}={}", label.empty() ? "" : ",", key_of(grid_columns[c]), r.values[c]);
    return label;
  };

  SortFlushTable table;
  table.caption =
      fmt::format("sort/flush : tps avg & stddev (percent of time below {} tps)", format_fixed(threshold, 1));
  std::vector<std::string> flush_labels;
  for (const std::string& v : flush_on) flush_labels.push_back(one_flush_value ? "on" : v);
  flush_labels.emplace_back("off");
  for (const char* s : {"on", "off"}) {
    for (const std::string& f : flush_labels) table.combinations.push_back(fmt::format("{:<3} / {}", s, f));
  }
  Cells cells;
  int most_repeats = 0;
  for (const ReportRow& r : rows) {
    const std::string combination =
        fmt::format("{:<3} / {}", is_on(r.values.at(sort)) ? "on" : "off", flush_label(r.values[flush]));
    add_label(table.test_types, test_type(r));
    Cell& cell = cells[{combination, test_type(r)}];
    cell.add(r.stability);
    most_repeats = std::max(most_repeats, r.repeat);
  }
  // Rows the grid has no point for are left out: a grid over sorting on only has two.
  std::erase_if(table.combinations, [&](const std::string& combination) {
    return std::none_of(table.test_types.begin(), table.test_types.end(), [&](const std::string& t) {
      return cells.contains({combination, t});
    });
  });

  table.cells.resize(table.combinations.size());
  for (const std::string& t : table.test_types) {
    const std::vector<std::string> column = column_cells(cells, table.combinations, t);
    for (std::size_t row = 0; row < column.size(); ++row) table.cells[row].push_back(column[row]);
  }
  if (most_repeats > 1) {
    table.note = fmt::format("each cell: the mean over the point's repeats (up to {})", most_repeats);
  }
  return table;
}

std::string format_sort_flush_table(const SortFlushTable& table) {
  const std::string corner = "sort / flush";
  std::size_t first_w = corner.size();
  for (const std::string& c : table.combinations) first_w = std::max(first_w, display_width(c));
  std::vector<std::size_t> widths;
  for (std::size_t t = 0; t < table.test_types.size(); ++t) {
    std::size_t w = display_width(table.test_types[t]);
    for (const auto& row : table.cells) w = std::max(w, display_width(row[t]));
    widths.push_back(w);
  }
  auto line = [&](const std::string& first, auto cell_of, std::string_view separator, char fill) {
    std::string text = fill == ' ' ? pad_right(first, first_w) : std::string(first_w, fill);
    for (std::size_t t = 0; t < widths.size(); ++t)
      text +=
          fmt::format("{}{}", separator, fill == ' ' ? pad_right(cell_of(t), widths[t]) : std::string(widths[t], fill));
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text + "\n";
  };
  std::string text = table.caption + "\n\n";
  text += line(
      corner, [&](std::size_t t) { return table.test_types[t]; }, " | ", ' ');
  text += line(
      corner, [](std::size_t) { return std::string(); }, "-+-", '-');
  for (std::size_t row = 0; row < table.combinations.size(); ++row)
    text += line(
        table.combinations[row], [&](std::size_t t) { return table.cells[row][t]; }, " | ", ' ');
  if (!table.note.empty()) text += table.note + "\n";
  return text;
}

}  // namespace ckptsim::analysis
