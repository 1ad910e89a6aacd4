// analysis/report.cpp
//
// The table is built as sections (grid values, avg ± stddev, below threshold,
// order statistics, skipped/late), each a block of equal-width cells; the
// header and separator lines join the sections with " | " and "-+-".
#include "analysis/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "analysis/csv.h"
#include "analysis/text_table.h"

namespace ckptsim::analysis {

namespace {

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

// summary.csv's stability columns, in order, and where each lives in Stability.
constexpr std::array<std::pair<const char*, double Stability::*>, 11> kStabilityColumns = {{
    {"tps_mean", &Stability::tps_mean},
    {"tps_stddev", &Stability::tps_stddev},
    {"threshold", &Stability::threshold},
    {"pct_below_threshold", &Stability::pct_below_threshold},
    {"tps_min", &Stability::tps_min},
    {"tps_q1", &Stability::tps_q1},
    {"tps_median", &Stability::tps_median},
    {"tps_q3", &Stability::tps_q3},
    {"tps_max", &Stability::tps_max},
    {"skipped_pct", &Stability::skipped_pct},
    {"late_pct", &Stability::late_pct},
}};

constexpr char kRepeatColumn[] = "repeat";

bool has_repeats(const std::vector<ReportRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const ReportRow& r) { return r.repeat > 0; });
}

// A column of an extra section: its header, the figure it shows, how.
struct FigureColumn {
  const char* header;
  const char* figure;
  int decimals;
  double scale = 1;  // e.g. 1024: MB shown as kB
};

// An extra section of figures, or nothing when a row lacks one of them (rows
// built from the stability figures alone keep the table as it was).
std::optional<Section> figure_section(const std::vector<ReportRow>& rows,
                                      std::initializer_list<FigureColumn> columns_of) {
  std::vector<std::string> names;
  for (const FigureColumn& c : columns_of) names.emplace_back(c.header);
  std::vector<std::vector<std::string>> cells;
  for (const ReportRow& r : rows) {
    std::vector<std::string> row;
    for (const FigureColumn& c : columns_of) {
      const Figure* f = find_figure(r, c.figure);
      if (!f) return std::nullopt;
      row.push_back(std::isnan(f->value) ? std::string("-") : format_fixed(f->value * c.scale, c.decimals));
    }
    cells.push_back(std::move(row));
  }
  if (rows.empty()) return std::nullopt;
  return columns(names, cells, Align::kRight);
}

// The grid's values, and each row's repeat when the grid has repeats.
Section grid_values(const std::vector<std::string>& grid_columns, const std::vector<ReportRow>& rows) {
  const bool repeats = has_repeats(rows);
  std::vector<std::string> names = grid_columns;
  if (repeats) names.emplace_back(kRepeatColumn);
  std::vector<std::vector<std::string>> cells;
  for (const ReportRow& r : rows) {
    cells.push_back(r.values);
    if (repeats) cells.back().push_back(std::to_string(r.repeat));
  }
  return columns(names, cells, Align::kLeft);
}

// Latency, checkpoints, writes per transaction (the bgwriter's maxwritten_clean
// rounds with four decimals: a few per thousand transactions), WAL: each
// section when every row has its figures.
void add_figure_sections(std::vector<Section>& sections, const std::vector<ReportRow>& rows) {
  namespace fig = figure_names;
  for (auto section :
       {figure_section(rows, {{"p50 ms", fig::kLatencyP50, 1}, {"p99 ms", fig::kLatencyP99, 1}}),
        figure_section(rows, {{"ckpt time", fig::kCheckpointsTimed, 0}, {"ckpt req", fig::kCheckpointsReq, 0}}),
        figure_section(rows, {{"ckpt/tx", fig::kBuffersCheckpointPerTx, 3},
                              {"clean/tx", fig::kBuffersCleanPerTx, 3},
                              {"maxw/tx", fig::kMaxwrittenCleanPerTx, 4},
                              {"backend/tx", fig::kBuffersBackendPerTx, 3}}),
        figure_section(rows, {{"WAL kB/tx", fig::kWalMbPerTx, 1, 1024}, {"FPI/tx", fig::kWalFpiPerTx, 3}})}) {
    if (section) sections.push_back(std::move(*section));
  }
}

// The table's lines: each section as wide as its widest line, header
// included; the grid section (when `grid_first`) padded on the right, the
// figures on the left; no line carries trailing blanks.
std::string join_sections(std::vector<Section>& sections, bool grid_first, std::size_t rows) {
  for (Section& s : sections) {
    s.width = display_width(s.header);
    for (const std::string& cell : s.cells) s.width = std::max(s.width, display_width(cell));
  }
  auto line_of = [&](auto cell_of, std::string_view separator, bool is_rule) {
    std::string line;
    for (std::size_t i = 0; i < sections.size(); ++i) {
      if (i > 0) line += separator;
      const std::string cell = cell_of(sections[i]);
      const bool left = i == 0 && grid_first;
      line += is_rule ? cell : (left ? pad_right(cell, sections[i].width) : pad_left(cell, sections[i].width));
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::string table = line_of([](const Section& s) { return s.header; }, " | ", false);
  table += line_of([](const Section& s) { return std::string(s.width, '-'); }, "-+-", true);
  for (std::size_t row = 0; row < rows; ++row) {
    table += line_of([row](const Section& s) { return s.cells[row]; }, " | ", false);
  }
  return table;
}

}  // namespace

const Figure* find_figure(const ReportRow& row, std::string_view name) {
  const auto at = std::find_if(row.figures.begin(), row.figures.end(), [&](const Figure& f) { return f.name == name; });
  return at == row.figures.end() ? nullptr : &*at;
}

std::vector<Figure> stability_figures(const Stability& s) {
  std::vector<Figure> figures;
  for (const auto& [name, member] : kStabilityColumns) figures.push_back({name, s.*member, 3});
  return figures;
}

std::string format_report(const std::vector<std::string>& grid_columns, const std::vector<ReportRow>& rows,
                          double threshold) {
  for (const ReportRow& r : rows) {
    if (r.values.size() != grid_columns.size()) {
      throw std::invalid_argument(
          fmt::format("report row has {} grid values, expected {}", r.values.size(), grid_columns.size()));
    }
  }
  std::vector<Section> sections;

  const bool grid_section = !grid_columns.empty() || has_repeats(rows);
  if (grid_section) sections.push_back(grid_values(grid_columns, rows));

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

  add_figure_sections(sections, rows);

  return join_sections(sections, grid_section, rows.size());
}

void write_summary_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                       const std::vector<ReportRow>& rows) {
  const bool repeats = has_repeats(rows);
  std::vector<std::string> header = grid_columns;
  if (repeats) header.emplace_back(kRepeatColumn);
  for (const auto& [name, member] : kStabilityColumns) header.emplace_back(name);
  if (!rows.empty()) {
    for (const Figure& f : rows.front().figures) header.push_back(f.name);
  }
  CsvWriter csv(path, header);
  for (const ReportRow& r : rows) {
    if (r.values.size() != grid_columns.size()) {
      throw std::invalid_argument(fmt::format("{}: summary row has {} grid values, expected {}", path.string(),
                                              r.values.size(), grid_columns.size()));
    }
    std::vector<std::string> cells = r.values;
    if (repeats) cells.push_back(std::to_string(r.repeat));
    for (const auto& [name, member] : kStabilityColumns) cells.push_back(format_fixed(r.stability.*member, 3));
    // Every row has the first row's figures, by name: a cell is never under another figure's header.
    for (std::size_t c = cells.size(); c < header.size(); ++c) {
      const Figure* f = find_figure(r, header[c]);
      if (!f) throw std::invalid_argument(fmt::format("{}: a row has no figure {}", path.string(), header[c]));
      cells.push_back(std::isnan(f->value) ? std::string() : format_fixed(f->value, f->decimals));
    }
    csv.row(cells);
  }
  csv.commit();
}

SummaryCsv read_summary_csv(const std::filesystem::path& path) {
  const CsvTable table = read_csv(path);
  SummaryCsv summary;
  std::size_t c = 0;
  while (c < table.header.size() && table.header[c] != kRepeatColumn && table.header[c] != kStabilityColumns[0].first)
    summary.grid_columns.push_back(table.header[c++]);
  const bool repeats = c < table.header.size() && table.header[c] == kRepeatColumn;
  const std::size_t first_stability = c + (repeats ? 1 : 0);
  for (std::size_t i = 0; i < kStabilityColumns.size(); ++i) {
    if (first_stability + i >= table.header.size() || table.header[first_stability + i] != kStabilityColumns[i].first)
      throw std::runtime_error(fmt::format("{}:1: expected column {} at {}", path.string(), kStabilityColumns[i].first,
                                           first_stability + i + 1));
  }
  const std::size_t first_figure = first_stability + kStabilityColumns.size();
  int line = 1;
  for (const auto& cells : table.rows) {
    ++line;
    auto number = [&](std::size_t at) { return parse_number(path, line, table.header[at], cells[at]); };
    ReportRow row;
    row.values.assign(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(c));
    if (repeats) row.repeat = static_cast<int>(number(c));
    for (std::size_t i = 0; i < kStabilityColumns.size(); ++i)
      row.stability.*kStabilityColumns[i].second = number(first_stability + i);
    for (std::size_t at = first_figure; at < cells.size(); ++at) {
      const double value = cells[at].empty() ? std::numeric_limits<double>::quiet_NaN() : number(at);
      row.figures.push_back({table.header[at], value, 3});
    }
    summary.rows.push_back(std::move(row));
  }
  return summary;
}

}  // namespace ckptsim::analysis
