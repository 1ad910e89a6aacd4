// analysis/csv.h
//
// The CSV files of ckptsim's outputs (progress.csv, system.csv, summary.csv):
// writing them atomically, reading them back, and turning a progress.csv into
// the per-interval tps series that the stability figures need.
//
// Format: RFC 4180 with "\n" line ends (pandas- and gnuplot-friendly); a cell
// is quoted only when it holds a comma, a double quote or a line break, and a
// quote inside is doubled. The reader also accepts "\r\n". Numbers are written
// with a fixed number of decimals (format_fixed), so that the same run gives
// byte-identical files on any machine.
//
// Left out: other separators, comment lines, type inference (cells stay strings).
#pragma once

#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/atomic_file.h"
#include "analysis/tps_series.h"

namespace ckptsim::analysis {

class CsvWriter {
 public:
  // Opens path atomically and writes the header row.
  CsvWriter(std::filesystem::path path, std::vector<std::string> header);

  // One row; throws std::invalid_argument if it has not as many cells as the header.
  void row(const std::vector<std::string>& cells);

  // Publishes the file under its final name (see AtomicFile::commit).
  void commit();

 private:
  void write_line(const std::vector<std::string>& cells);

  AtomicFile file_;
  std::size_t columns_;
};

// v with `decimals` digits after the point, locale-independent (fmt); a value
// that rounds to zero is written without a sign ("-0.000" becomes "0.000").
std::string format_fixed(double v, int decimals);

// A CSV file as strings: the header and the rows, each row as wide as the header.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  int column(std::string_view name) const;  // index in header, -1 if absent
};

// Reads a whole file. Throws std::runtime_error "<file>:<line>: <what>" for an
// unreadable or empty file, a row with the wrong number of cells, or a quote
// left open at the end of the file (line = where the quoted cell began).
CsvTable read_csv(const std::filesystem::path& path);

// Only the header row (column names), without reading the rest of the file.
std::vector<std::string> read_csv_header(const std::filesystem::path& path);

// The same readers over an open stream; `name` stands for the file in messages.
CsvTable read_csv(std::istream& in, const std::filesystem::path& name);
std::vector<std::string> read_csv_header(std::istream& in, const std::filesystem::path& name);

// A cell that must be a finite number; throws std::runtime_error
// "<file>:<line>: <column> value "<cell>" is not a number" otherwise.
double parse_number(const std::filesystem::path& file, int line, std::string_view column, const std::string& cell);

// The per-interval tps series of a progress.csv (columns time_s and tps).
// pgbench -P prints nothing while it is stuck, so intervals may be missing:
// each row is placed on the interval grid by its time_s and missing intervals
// count as 0 tps. time_s is the end of its interval, as pgbench prints it
// (row "5.0 s" is the 5th one-second interval); a file whose first time_s is 0
// labels interval starts instead, and is read that way. Times are rounded to
// the nearest grid point. interval_s = 0 infers the interval: the smallest
// positive step between consecutive times (counting from 0 to the first).
// Throws std::runtime_error "<file>:<line>: ..." for a missing column, a value
// that is not a finite number, a tps outside 0..1e9, a time going backwards or repeated.
std::vector<double> read_tps_series(const std::filesystem::path& progress_csv, double interval_s = 0);
std::vector<double> read_tps_series(std::istream& in, const std::filesystem::path& name, double interval_s = 0);

// The rows' (time_s, tps) readings, before they are placed on the interval grid.
std::vector<TimedTps> read_tps_readings(std::istream& in, const std::filesystem::path& name);

// The run's totals in a progress.csv: transactions (tps x interval, row by
// row) and, when the file has those columns (ckptsim's does), the skipped and
// late counts. Throws "<file>:<line>: ..." as read_tps_series does, and for a
// count that is not a whole number.
struct ProgressCounts {
  std::int64_t transactions = 0, skipped = 0, late = 0;
};
ProgressCounts read_progress_counts(const std::filesystem::path& progress_csv);
ProgressCounts read_progress_counts(std::istream& in, const std::filesystem::path& name);

}  // namespace ckptsim::analysis
