// analysis/report.cpp
//
// The table is built as sections (grid values, avg ± stddev, below threshold,
// order statistics, skipped/late), each a block of equal-width cells; the
// header and separator lines join the sections with " | " and "-+-".
#include "analysis/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "analysis/csv.h"

namespace ckptsim::analysis {

namespace {

// Display width of UTF-8 text: one column per code point ("±" is two bytes).
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad_left(std::string_view text, std::size_t width) {
  const std::size_t w = display_width(text);
  return std::string(width > w ? width - w : 0, ' ') + std::string(text);
}

std::string pad_right(std::string_view text, std::size_t width) {
  const std::size_t w = display_width(text);
  return std::string(text) + std::string(width > w ? width - w : 0, ' ');
}

// A section of the table: its header text and one cell per row, all padded to one width.
struct Section {
  std::string header;
  std::vector<std::string> cells;
  std::size_t width = 0;
};

enum class Align { kLeft, kRight };

// Columns separated by two spaces under one section header; labels read best
// left-aligned, numbers right-aligned.
Section columns(const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows, Align align) {
  std::vector<std::size_t> widths(names.size());
  for (std::size_t c = 0; c < names.size(); ++c) {
    widths[c] = display_width(names[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto join = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) line += "  ";
      line += align == Align::kLeft ? pad_right(cells[c], widths[c]) : pad_left(cells[c], widths[c]);
    }
    return line;
  };
  Section s;
  s.header = join(names);
  for (const auto& row : rows) s.cells.push_back(join(row));
  return s;
}

std::string whole(double v) { return format_fixed(v, 0); }

}  // namespace

std::string format_report(const std::vector<std::string>& grid_columns, const std::vector<ReportRow>& rows,
                          double threshold) {
  for (const ReportRow& r : rows) {
    if (r.values.size() != grid_columns.size()) {
      throw std::invalid_argument(
          fmt::format("report row has {} grid values, expected {}", r.values.size(), grid_columns.size()));
    }
  }
  std::vector<Section> sections;

  if (!grid_columns.empty()) {
    std::vector<std::vector<std::string>> cells;
    for (const ReportRow& r : rows) cells.push_back(r.values);
    sections.push_back(columns(grid_columns, cells, Align::kLeft));
  }

  {
    // "avg ± stddev" with the ± signs in one column.
    std::size_t mean_width = 0, stddev_width = 0;
    std::vector<std::pair<std::string, std::string>> figures;
    for (const ReportRow& r : rows) {
      figures.emplace_back(format_fixed(r.stability.tps_mean, 1), format_fixed(r.stability.tps_stddev, 1));
      mean_width = std::max(mean_width, figures.back().first.size());
      stddev_width = std::max(stddev_width, figures.back().second.size());
    }
    Section s;
    s.header = "tps avg ± stddev";
    for (const auto& [mean, stddev] : figures) {
      s.cells.push_back(pad_left(mean, mean_width) + " ± " + pad_right(stddev, stddev_width));
    }
    sections.push_back(std::move(s));
  }

  {
    std::vector<std::vector<std::string>> cells;
    for (const ReportRow& r : rows) cells.push_back({format_fixed(r.stability.pct_below_threshold, 1) + "%"});
    sections.push_back(columns({fmt::format("<{} tps", threshold)}, cells, Align::kRight));
  }

  {
    std::vector<std::vector<std::string>> cells;
    for (const ReportRow& r : rows) {
      const Stability& s = r.stability;
      cells.push_back({whole(s.tps_min), whole(s.tps_q1), whole(s.tps_median), whole(s.tps_q3), whole(s.tps_max)});
    }
    sections.push_back(columns({"min", "q1", "med", "q3", "max"}, cells, Align::kRight));
  }

  const bool rate_limited = std::any_of(rows.begin(), rows.end(), [](const ReportRow& r) {
    return r.stability.skipped_pct != 0 || r.stability.late_pct != 0;
  });
  if (rate_limited) {
    std::vector<std::vector<std::string>> cells;
    for (const ReportRow& r : rows) {
      cells.push_back({format_fixed(r.stability.skipped_pct, 2) + "%", format_fixed(r.stability.late_pct, 2) + "%"});
    }
    sections.push_back(columns({"skipped", "late"}, cells, Align::kRight));
  }

  // Each section is as wide as its widest line, header included.
  for (Section& s : sections) {
    s.width = display_width(s.header);
    for (const std::string& cell : s.cells) s.width = std::max(s.width, display_width(cell));
  }
  // The grid section is padded on the right, the figures on the left; no line
  // carries trailing blanks.
  auto line_of = [&](auto cell_of, std::string_view separator, bool is_rule) {
    std::string line;
    for (std::size_t i = 0; i < sections.size(); ++i) {
      if (i > 0) line += separator;
      const std::string cell = cell_of(sections[i]);
      const bool left = i == 0 && !grid_columns.empty();
      line += is_rule ? cell : (left ? pad_right(cell, sections[i].width) : pad_left(cell, sections[i].width));
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string table = line_of([](const Section& s) { return s.header; }, " | ", false);
  table += line_of([](const Section& s) { return std::string(s.width, '-'); }, "-+-", true);
  for (std::size_t row = 0; row < rows.size(); ++row) {
    table += line_of([row](const Section& s) { return s.cells[row]; }, " | ", false);
  }
  return table;
}

void write_summary_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                       const std::vector<ReportRow>& rows) {
  std::vector<std::string> header = grid_columns;
  for (const char* name : {"tps_mean", "tps_stddev", "threshold", "pct_below_threshold", "tps_min", "tps_q1",
                           "tps_median", "tps_q3", "tps_max", "skipped_pct", "late_pct"}) {
    header.emplace_back(name);
  }
  CsvWriter csv(path, std::move(header));
  for (const ReportRow& r : rows) {
    if (r.values.size() != grid_columns.size()) {
      throw std::invalid_argument(fmt::format("{}: summary row has {} grid values, expected {}", path.string(),
                                              r.values.size(), grid_columns.size()));
    }
    const Stability& s = r.stability;
    std::vector<std::string> cells = r.values;
    for (double v : {s.tps_mean, s.tps_stddev, s.threshold, s.pct_below_threshold, s.tps_min, s.tps_q1, s.tps_median,
                     s.tps_q3, s.tps_max, s.skipped_pct, s.late_pct}) {
      cells.push_back(format_fixed(v, 3));
    }
    csv.row(cells);
  }
  csv.commit();
}

}  // namespace ckptsim::analysis
