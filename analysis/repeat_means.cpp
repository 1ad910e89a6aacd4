#include "analysis/repeat_means.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/csv.h"

namespace ckptsim::analysis {

namespace {

// Every figure of a row, the stability ones first, as summary.csv orders them.
std::vector<Figure> all_figures(const ReportRow& r) {
  std::vector<Figure> figures = stability_figures(r.stability);
  figures.insert(figures.end(), r.figures.begin(), r.figures.end());
  return figures;
}

struct Spread {
  double mean = 0, stddev = 0, min = 0, max = 0;
};

Spread spread_of(const std::vector<double>& values) {
  Spread s{.mean = 0, .stddev = 0, .min = values.front(), .max = values.front()};
  for (const double v : values) {
    s.mean += v;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
  }
  s.mean /= static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0;
    for (const double v : values) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return s;
}

}  // namespace

void write_summary_mean_csv(const std::filesystem::path& path, const std::vector<std::string>& grid_columns,
                            const std::vector<ReportRow>& rows) {
  // The points, each a list of its repeats' rows, in the order their first repeat comes.
  std::vector<std::vector<const ReportRow*>> points;
  for (const ReportRow& r : rows) {
    if (r.values.size() != grid_columns.size()) {
      throw std::invalid_argument(fmt::format("{}: summary row has {} grid values, expected {}", path.string(),
                                              r.values.size(), grid_columns.size()));
    }
    const auto at =
        std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.front()->values == r.values; });
    if (at == points.end()) {
      points.push_back({&r});
    } else {
      at->push_back(&r);
    }
  }
  const std::vector<Figure> names = rows.empty() ? stability_figures({}) : all_figures(rows.front());
  std::vector<std::string> header = grid_columns;
  header.emplace_back("repeats");
  for (const Figure& f : names) {
    for (const char* what : {"mean", "stddev", "min", "max"}) header.push_back(f.name + "_" + what);
  }
  CsvWriter csv(path, std::move(header));
  for (const auto& repeats : points) {
    std::vector<std::string> cells = repeats.front()->values;
    cells.push_back(std::to_string(repeats.size()));
    std::vector<std::vector<Figure>> figures_of;
    for (const ReportRow* r : repeats) figures_of.push_back(all_figures(*r));
    for (const Figure& f : names) {
      std::vector<double> values;
      for (const std::vector<Figure>& figures : figures_of) {
        const auto at = std::find_if(figures.begin(), figures.end(), [&](const Figure& g) { return g.name == f.name; });
        if (at == figures.end())
          throw std::invalid_argument(fmt::format("{}: a row has no figure {}", path.string(), f.name));
        if (!std::isnan(at->value)) values.push_back(at->value);  // a repeat without that figure
      }
      if (values.empty()) {
        cells.insert(cells.end(), 4, std::string());
        continue;
      }
      const Spread s = spread_of(values);
      const int decimals = std::max(f.decimals, 3);
      cells.push_back(format_fixed(s.mean, decimals));
      cells.push_back(format_fixed(s.stddev, decimals));
      cells.push_back(format_fixed(s.min, f.decimals));
      cells.push_back(format_fixed(s.max, f.decimals));
    }
    csv.row(cells);
  }
  csv.commit();
}

}  // namespace ckptsim::analysis
