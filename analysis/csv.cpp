// analysis/csv.cpp
//
// The reader is a small state machine fed a line at a time (a file is never
// held whole: analysis/text_line.h bounds each line), counting physical lines
// so that errors point into the file even when a quoted cell spans lines.
#include "analysis/csv.h"

#include "analysis/regular_file.h"
#include "analysis/text_line.h"
#include "analysis/tps_series.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
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

// The records of a stream, parsed a line at a time (analysis/text_line.h), so
// that a large file is never held whole. A line with nothing on it is skipped
// (a stray trailing newline is common in hand-edited files).
class RecordReader {
 public:
  RecordReader(std::istream& in, const std::filesystem::path& file) : in_(in), file_(file) {}

  // The next record, or nullopt at the end of the stream.
  std::optional<Record> next() {
    while (ready_.empty() && !done_) feed_line();
    if (ready_.empty()) return std::nullopt;
    Record r = std::move(ready_.front());
    ready_.pop_front();
    return r;
  }

 private:
  // One physical line with its '\n' (none after the file's last byte: an added
  // one would turn a final lone "\r" into a CRLF, fuzz_csv).
  void feed_line() {
    if (!read_line(in_, text_, file_, next_line_)) {
      if (in_quotes_) fail_at(file_, quote_line_, "quoted cell is not terminated");
      end_record();
      done_ = true;
      return;
    }
    ++next_line_;
    if (!in_.eof()) text_ += '\n';
    parse(text_);
    if (cell_.size() > kMaxLineBytes)  // a quoted cell across lines
      fail_at(file_, quote_line_, fmt::format("a cell longer than {} MiB", kMaxLineBytes >> 20));
  }

  void parse(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (in_quotes_) {
        if (c == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            cell_ += '"';
            ++i;
          } else {
            in_quotes_ = false;
          }
        } else {
          if (c == '\n') ++line_;
          cell_ += c;
        }
        continue;
      }
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
      if (c == '\n') {
        end_record();
        ++line_;
        record_line_ = line_;
      } else if (c == ',') {
        end_cell();
      } else if (cell_quoted_) {
        fail_at(file_, line_, "text after the closing quote of a cell");
      } else if (c == '"' && cell_.empty()) {
        in_quotes_ = true;
        cell_quoted_ = true;
        quote_line_ = line_;
      } else {
        cell_ += c;
      }
    }
  }

  void end_cell() {
    cells_.push_back(std::move(cell_));
    cell_.clear();
    cell_quoted_ = false;
  }

  void end_record() {
    const bool blank = cells_.empty() && cell_.empty() && !cell_quoted_;
    if (!blank) {
      end_cell();
      ready_.push_back({std::move(cells_), record_line_});
    }
    cells_.clear();
  }

  std::istream& in_;
  const std::filesystem::path& file_;
  std::string text_;
  std::deque<Record> ready_;
  bool done_ = false;
  int next_line_ = 1;  // of the next line read
  std::vector<std::string> cells_;
  std::string cell_;
  bool in_quotes_ = false;
  bool cell_quoted_ = false;  // the current cell was quoted; only , or a line end may follow
  int line_ = 1;
  int record_line_ = 1;
  int quote_line_ = 1;
};

std::ifstream open_file(const std::filesystem::path& file) {
  // A FIFO would block the open, a device never end (analysis/regular_file.h).
  if (std::filesystem::exists(file) && !is_readable_regular_file(file))
    throw std::runtime_error(fmt::format("{}: not a regular file", file.string()));
  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) fail_open(file, errno);
  return in;
}

// The header to on_header, then each record after it, checked against the
// header's width, to on_row, as the stream is read; returns the header.
template <class OnHeader, class OnRow>
Record read_checked(std::istream& in, const std::filesystem::path& file, OnHeader on_header, OnRow on_row) {
  RecordReader reader(in, file);
  std::optional<Record> header = reader.next();
  if (!header) fail_at(file, 1, "empty file (expected a header line)");
  on_header(*header);
  const std::size_t width = header->cells.size();
  while (std::optional<Record> r = reader.next()) {
    if (r->cells.size() != width) {
      fail_at(file, r->line, fmt::format("{} cells, expected {} as in the header", r->cells.size(), width));
    }
    on_row(std::move(*r));
  }
  return std::move(*header);
}

}  // namespace

double parse_number(const std::filesystem::path& file, int line, std::string_view column, const std::string& cell) {
  double value = 0;
  const char* end = cell.data() + cell.size();
  const auto [ptr, ec] = std::from_chars(cell.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    fail_at(file, line, fmt::format("{} value \"{}\" is not a number", column, cell));
  }
  return value;
}

namespace {

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
  CsvTable table;
  table.header = read_checked(
                     in, path, [](const Record&) {}, [&](Record&& r) { table.rows.push_back(std::move(r.cells)); })
                     .cells;
  return table;
}

std::vector<std::string> read_csv_header(const std::filesystem::path& path) {
  std::ifstream in = open_file(path);
  return read_csv_header(in, path);
}

std::vector<std::string> read_csv_header(std::istream& in, const std::filesystem::path& path) {
  std::optional<Record> header = RecordReader(in, path).next();
  if (!header) fail_at(path, 1, "empty file (expected a header line)");
  return std::move(header->cells);
}

std::vector<double> read_tps_series(const std::filesystem::path& progress_csv, double interval_s) {
  std::ifstream in = open_file(progress_csv);
  return read_tps_series(in, progress_csv, interval_s);
}

std::vector<TimedTps> read_tps_readings(std::istream& in, const std::filesystem::path& progress_csv) {
  std::vector<TimedTps> readings;
  int time_col = -1, tps_col = -1;
  const auto columns = [&](const Record& header) {
    time_col = find_column(progress_csv, header, "time_s");
    tps_col = find_column(progress_csv, header, "tps");
  };
  read_checked(in, progress_csv, columns, [&](Record&& r) {
    readings.push_back({parse_number(progress_csv, r.line, "time_s", r.cells[static_cast<std::size_t>(time_col)]),
                        parse_tps(progress_csv, r.line, r.cells[static_cast<std::size_t>(tps_col)]), r.line});
  });
  return readings;
}

std::vector<double> read_tps_series(std::istream& in, const std::filesystem::path& progress_csv, double interval_s) {
  return place_on_interval_grid(read_tps_readings(in, progress_csv), interval_s, progress_csv);
}

ProgressCounts read_progress_counts(const std::filesystem::path& progress_csv) {
  std::ifstream in = open_file(progress_csv);
  return read_progress_counts(in, progress_csv);
}

ProgressCounts read_progress_counts(std::istream& in, const std::filesystem::path& progress_csv) {
  int time_col = -1, tps_col = -1, skipped_col = -1, late_col = -1;
  const auto columns = [&](const Record& header) {
    time_col = find_column(progress_csv, header, "time_s");
    tps_col = find_column(progress_csv, header, "tps");
    const auto optional_column = [&](std::string_view name) {
      const auto it = std::find(header.cells.begin(), header.cells.end(), name);
      return it == header.cells.end() ? -1 : static_cast<int>(it - header.cells.begin());
    };
    skipped_col = optional_column("skipped");
    late_col = optional_column("late");
  };
  ProgressCounts counts;
  double previous = 0;
  bool first = true;
  read_checked(in, progress_csv, columns, [&](Record&& r) {
    const auto cell = [&r](int col) -> const std::string& { return r.cells[static_cast<std::size_t>(col)]; };
    const double t = parse_number(progress_csv, r.line, "time_s", cell(time_col));
    if (t < previous) {
      fail_at(progress_csv, r.line,
              first ? fmt::format("time_s {} is before the start of the run", cell(time_col))
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
    first = false;
  });
  return counts;
}

}  // namespace ckptsim::analysis
