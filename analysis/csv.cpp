// analysis/csv.cpp
//
// The reader is a small state machine over the whole text (progress files are
// a few hundred kB at most), counting physical lines so that errors point
// into the file even when a quoted cell spans lines.
#include "analysis/csv.h"

#include "analysis/tps_series.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace ckptsim::analysis {

namespace {

bool needs_quotes(std::string_view cell) { return cell.find_first_of(",\"\r\n") != std::string_view::npos; }

void write_cell(std::ostream& out, std::string_view cell) {
  if (!needs_quotes(cell)) {
    out << cell;
    return;
  }
  out << '"';
  for (char c : cell) {
    if (c == '"') out << '"';
    out << c;
  }
  out << '"';
}

[[noreturn]] void fail_open(const std::filesystem::path& file, int err) {
  throw std::runtime_error(fmt::format("{}: cannot open: {}", file.string(), std::strerror(err)));
}

struct Record {
  std::vector<std::string> cells;
  int line;  // physical line where the record starts, 1-based
};

// Splits text into records. A line with nothing on it is skipped (a stray
// trailing newline is common in hand-edited files).
std::vector<Record> parse_records(const std::string& text, const std::filesystem::path& file) {
  std::vector<Record> records;
  std::vector<std::string> cells;
  std::string cell;
  bool in_quotes = false;
  bool cell_quoted = false;  // the current cell was quoted; only , or a line end may follow
  int line = 1;
  int record_line = 1;
  int quote_line = 1;

  auto end_cell = [&] {
    cells.push_back(std::move(cell));
    cell.clear();
    cell_quoted = false;
  };
  auto end_record = [&] {
    const bool blank = cells.empty() && cell.empty() && !cell_quoted;
    if (!blank) {
      end_cell();
      records.push_back({std::move(cells), record_line});
    }
    cells.clear();
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          cell += '"';
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
      continue;
    }
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (c == '\n') {
      end_record();
      ++line;
      record_line = line;
    } else if (c == ',') {
      end_cell();
    } else if (cell_quoted) {
      fail_at(file, line, "text after the closing quote of a cell");
    } else if (c == '"' && cell.empty()) {
      in_quotes = true;
      cell_quoted = true;
      quote_line = line;
    } else {
      cell += c;
    }
  }
  if (in_quotes) fail_at(file, quote_line, "quoted cell is not terminated");
  end_record();
  return records;
}

std::ifstream open_file(const std::filesystem::path& file) {
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) fail_open(file, errno);
  return in;
}

std::string read_whole(std::istream& in) {
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Header plus rows, with each row checked against the header's width.
std::vector<Record> read_checked(std::istream& in, const std::filesystem::path& file) {
  auto records = parse_records(read_whole(in), file);
  if (records.empty()) fail_at(file, 1, "empty file (expected a header line)");
  const std::size_t width = records.front().cells.size();
  for (const Record& r : records) {
    if (r.cells.size() != width) {
      fail_at(file, r.line, fmt::format("{} cells, expected {} as in the header", r.cells.size(), width));
    }
  }
  return records;
}

double parse_number(const std::filesystem::path& file, int line, std::string_view column, const std::string& cell) {
  double value = 0;
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    fail_at(file, line, fmt::format("{} value \"{}\" is not a number", column, cell));
  }
  return value;
}

// A tps cell: a number no run can exceed (1e308 would give inf quartiles).
constexpr double kMaxTps = 1e9;
double parse_tps(const std::filesystem::path& file, int line, const std::string& cell) {
  const double tps = parse_number(file, line, "tps", cell);
  if (tps < 0 || tps > kMaxTps)
    fail_at(file, line, fmt::format("tps {} is out of range (0 to 1e9)", cell.substr(0, 40)));
  return tps;
}

// A skipped / late cell: a whole number of transactions.
std::int64_t parse_count(const std::filesystem::path& file, int line, std::string_view column,
                         const std::string& cell) {
  std::int64_t value = -1;
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    fail_at(file, line, fmt::format("{} \"{}\" is not a whole number of transactions", column, cell.substr(0, 40)));
  }
  return value;
}

int find_column(const std::filesystem::path& file, const Record& header, std::string_view name) {
  for (std::size_t i = 0; i < header.cells.size(); ++i) {
    if (header.cells[i] == name) return static_cast<int>(i);
  }
  fail_at(file, header.line, fmt::format("no column \"{}\"", name));
}

constexpr double kInt64Limit = 9223372036854775808.0;  // 2^63: the first double past int64

}  // namespace

CsvWriter::CsvWriter(std::filesystem::path path, std::vector<std::string> header)
    : file_(std::move(path)), columns_(header.size()) {
  write_line(header);
}

void CsvWriter::row(const std::vector<std::string>& cells) {
  if (cells.size() != columns_) {
    throw std::invalid_argument(
        fmt::format("{}: row of {} cells, the header has {}", file_.path().string(), cells.size(), columns_));
  }
  write_line(cells);
}

void CsvWriter::commit() { file_.commit(); }

void CsvWriter::write_line(const std::vector<std::string>& cells) {
  std::ostream& out = file_.out();
  // A lone empty cell would be a blank line, which readers skip: quote it.
  if (cells.size() == 1 && cells.front().empty()) {
    out << "\"\"\n";
    return;
  }
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    write_cell(out, cells[i]);
  }
  out << '\n';
}

std::string format_fixed(double v, int decimals) {
  std::string text = fmt::format("{:.{}f}", v, decimals);
  if (!text.empty() && text.front() == '-' && text.find_first_not_of("0.", 1) == std::string::npos) {
    text.erase(0, 1);
  }
  return text;
}

int CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

CsvTable read_csv(const std::filesystem::path& path) {
  std::ifstream in = open_file(path);
  return read_csv(in, path);
}

CsvTable read_csv(std::istream& in, const std::filesystem::path& path) {
  auto records = read_checked(in, path);
  CsvTable table;
  table.header = std::move(records.front().cells);
  table.rows.reserve(records.size() - 1);
  for (std::size_t i = 1; i < records.size(); ++i) table.rows.push_back(std::move(records[i].cells));
  return table;
}

std::vector<std::string> read_csv_header(const std::filesystem::path& path) {
  std::ifstream in = open_file(path);
  return read_csv_header(in, path);
}

std::vector<std::string> read_csv_header(std::istream& in, const std::filesystem::path& path) {
  // A record is complete once its quotes balance (a doubled quote counts twice).
  std::string text;
  std::string line;
  while (std::getline(in, line)) {
    text += line;
    // Only a line end that is in the file: an added one would turn a final
    // lone "\r" into a CRLF that read_csv does not see (fuzz_csv).
    if (!in.eof()) text += '\n';
    const auto quotes = std::count(text.begin(), text.end(), '"');
    const bool blank = text.find_first_not_of("\r\n") == std::string::npos;
    if (quotes % 2 == 0 && !blank) break;
  }
  auto records = parse_records(text, path);
  if (records.empty()) fail_at(path, 1, "empty file (expected a header line)");
  return std::move(records.front().cells);
}

std::vector<double> read_tps_series(const std::filesystem::path& progress_csv, double interval_s) {
  std::ifstream in = open_file(progress_csv);
  return read_tps_series(in, progress_csv, interval_s);
}

std::vector<double> read_tps_series(std::istream& in, const std::filesystem::path& progress_csv, double interval_s) {
  const auto records = read_checked(in, progress_csv);
  const Record& header = records.front();
  const int time_col = find_column(progress_csv, header, "time_s");
  const int tps_col = find_column(progress_csv, header, "tps");
  std::vector<TimedTps> readings;
  for (std::size_t i = 1; i < records.size(); ++i) {
    const Record& r = records[i];
    readings.push_back({parse_number(progress_csv, r.line, "time_s", r.cells[static_cast<std::size_t>(time_col)]),
                        parse_tps(progress_csv, r.line, r.cells[static_cast<std::size_t>(tps_col)]), r.line});
  }
  return place_on_interval_grid(readings, interval_s, progress_csv);
}

ProgressCounts read_progress_counts(const std::filesystem::path& progress_csv) {
  std::ifstream in = open_file(progress_csv);
  return read_progress_counts(in, progress_csv);
}

ProgressCounts read_progress_counts(std::istream& in, const std::filesystem::path& progress_csv) {
  const auto records = read_checked(in, progress_csv);
  const Record& header = records.front();
  const int time_col = find_column(progress_csv, header, "time_s");
  const int tps_col = find_column(progress_csv, header, "tps");
  const auto optional_column = [&](std::string_view name) {
    const auto it = std::find(header.cells.begin(), header.cells.end(), name);
    return it == header.cells.end() ? -1 : static_cast<int>(it - header.cells.begin());
  };
  const int skipped_col = optional_column("skipped"), late_col = optional_column("late");
  ProgressCounts counts;
  double previous = 0;
  for (std::size_t i = 1; i < records.size(); ++i) {
    const Record& r = records[i];
    const auto cell = [&r](int col) -> const std::string& { return r.cells[static_cast<std::size_t>(col)]; };
    const double t = parse_number(progress_csv, r.line, "time_s", cell(time_col));
    if (t < previous) {
      fail_at(progress_csv, r.line,
              i == 1 ? fmt::format("time_s {} is before the start of the run", cell(time_col))
                     : fmt::format("time_s {} goes backwards (previous row: {})", cell(time_col), previous));
    }
    // Totals past int64 would overflow (huge counts, or time_s 1e300 x tps): refuse them.
    const auto too_many = [&](std::string_view what) {
      fail_at(progress_csv, r.line, fmt::format("the {} up to here are more than a 64-bit count holds", what));
    };
    const double row = std::round(parse_tps(progress_csv, r.line, cell(tps_col)) * (t - previous));
    if (!(row < kInt64Limit) ||
        __builtin_add_overflow(counts.transactions, static_cast<std::int64_t>(row), &counts.transactions)) {
      too_many("transactions (tps x interval)");
    }
    previous = t;
    if (skipped_col >= 0 &&
        __builtin_add_overflow(counts.skipped, parse_count(progress_csv, r.line, "skipped", cell(skipped_col)),
                               &counts.skipped)) {
      too_many("skipped transactions");
    }
    if (late_col >= 0 &&
        __builtin_add_overflow(counts.late, parse_count(progress_csv, r.line, "late", cell(late_col)), &counts.late)) {
      too_many("late transactions");
    }
  }
  return counts;
}

}  // namespace ckptsim::analysis
