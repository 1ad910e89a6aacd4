// tests/analysis/test_csv.cpp: CSV writing, reading, and the tps series of a progress.csv.
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/csv.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::read_text;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

namespace {

// The message of the std::runtime_error that f throws, or "" if it does not.
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("cells are quoted only when they hold a comma, a quote or a line break (RFC 4180)") {
  ScratchDir dir;
  CsvWriter csv(dir / "t.csv", {"name", "value"});
  csv.row({"plain", "1.5"});
  csv.row({"a,b", "say \"hi\""});
  csv.row({"two\nlines", ""});
  csv.commit();
  CHECK(read_text(dir / "t.csv") ==
        "name,value\n"
        "plain,1.5\n"
        "\"a,b\",\"say \"\"hi\"\"\"\n"
        "\"two\nlines\",\n");
}

TEST_CASE("what CsvWriter writes, read_csv reads back cell for cell") {
  ScratchDir dir;
  const std::vector<std::string> header = {"postgres.checkpoint_sorting", "label, quoted"};
  const std::vector<std::vector<std::string>> rows = {
      {"true", "he said \"no\""}, {"", "multi\nline, with comma"}, {"\"", ","}};
  CsvWriter csv(dir / "t.csv", header);
  for (const auto& r : rows) csv.row(r);
  csv.commit();
  const CsvTable table = read_csv(dir / "t.csv");
  CHECK(table.header == header);
  CHECK(table.rows == rows);
  CHECK(table.column("label, quoted") == 1);
  CHECK(table.column("absent") == -1);
}

TEST_CASE("a lone empty cell survives the round trip (it is not a blank line)") {
  ScratchDir dir;
  CsvWriter csv(dir / "t.csv", {"only"});
  csv.row({""});
  csv.commit();
  CHECK(read_text(dir / "t.csv") == "only\n\"\"\n");
  CHECK(read_csv(dir / "t.csv").rows == std::vector<std::vector<std::string>>{{""}});
}

TEST_CASE("a row of the wrong width is refused when written") {
  ScratchDir dir;
  CsvWriter csv(dir / "t.csv", {"a", "b"});
  CHECK_THROWS_AS(csv.row({"1"}), std::invalid_argument);
}

TEST_CASE("the reader accepts CRLF line ends and a missing final newline") {
  ScratchDir dir;
  write_text(dir / "t.csv", "a,b\r\n1,2\r\n3,4");
  const CsvTable table = read_csv(dir / "t.csv");
  CHECK(table.rows == std::vector<std::vector<std::string>>{{"1", "2"}, {"3", "4"}});
  CHECK(read_csv_header(dir / "t.csv") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("read_csv_header reads the first record as read_csv does, up to the file's last byte") {
  // A lone "\r" at the very end is part of the cell (no line end follows it).
  std::istringstream whole("A\r"), first("A\r");
  CHECK(read_csv(whole, "t.csv").header == std::vector<std::string>{"A\r"});
  CHECK(read_csv_header(first, "t.csv") == std::vector<std::string>{"A\r"});
  std::istringstream crlf("a,b\r\n1,2\r\n");
  CHECK(read_csv_header(crlf, "t.csv") == std::vector<std::string>{"a", "b"});
}

TEST_CASE("malformed CSV errors name the file and the line") {
  ScratchDir dir;
  const std::string file = (dir / "bad.csv").string();
  write_text(dir / "bad.csv", "a,b\n1,2\n3\n");
  CHECK(error_of([&] { read_csv(file); }) == file + ":3: 1 cells, expected 2 as in the header");
  // A quoted cell spanning lines counts its lines; the error points at the opening quote.
  write_text(dir / "bad.csv", "a,b\n\"x\ny\",2\n3,\"open\n");
  CHECK(error_of([&] { read_csv(file); }) == file + ":4: quoted cell is not terminated");
  write_text(dir / "bad.csv", "");
  CHECK(error_of([&] { read_csv(file); }) == file + ":1: empty file (expected a header line)");
  CHECK(error_of([&] { read_csv(dir / "nope.csv"); }) ==
        (dir / "nope.csv").string() + ": cannot open: No such file or directory");
}

TEST_CASE("format_fixed is fixed-point with no negative zero") {
  CHECK(format_fixed(631.25, 1) == "631.2");  // binary 631.25 is exact: round-half-even
  CHECK(format_fixed(2.0 / 3.0, 3) == "0.667");
  CHECK(format_fixed(-0.0, 3) == "0.000");
  CHECK(format_fixed(-0.0004, 3) == "0.000");
  CHECK(format_fixed(-0.0005001, 3) == "-0.001");
  CHECK(format_fixed(1234567.0, 0) == "1234567");
  CHECK(format_fixed(-0.4, 0) == "0");
}

TEST_CASE("missing progress intervals count as 0 tps (pgbench printed nothing while stuck)") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,tps,latency_ms\n1.0,500,2\n2.0,480,2\n5.0,300,9\n");
  CHECK(read_tps_series(dir / "progress.csv") == std::vector<double>{500, 480, 0, 0, 300});
  // A stall before the first line counts too: the series starts at the run's start.
  write_text(dir / "progress.csv", "tps,time_s\n7,3\n8,4\n");
  CHECK(read_tps_series(dir / "progress.csv") == std::vector<double>{0, 0, 7, 8});
}

TEST_CASE("the interval is inferred from the smallest step, or taken as given") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,tps\n5,10\n10,20\n25,30\n");
  CHECK(read_tps_series(dir / "progress.csv") == std::vector<double>{10, 20, 0, 0, 30});  // -P 5
  CHECK(read_tps_series(dir / "progress.csv", 2.5) == std::vector<double>{0, 10, 0, 20, 0, 0, 0, 0, 0, 30});
  // Jittered times (--progress-timestamp) land on the nearest grid point.
  write_text(dir / "progress.csv", "time_s,tps\n1.002,1\n1.998,2\n4.001,4\n");
  CHECK(read_tps_series(dir / "progress.csv", 1) == std::vector<double>{1, 2, 0, 4});
}

TEST_CASE("a progress file labelled by interval starts (first time_s 0) is read as such") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,tps\n0,5\n1,6\n3,8\n");
  CHECK(read_tps_series(dir / "progress.csv") == std::vector<double>{5, 6, 0, 8});
}

TEST_CASE("an empty progress file gives an empty series") {
  ScratchDir dir;
  write_text(dir / "progress.csv", "time_s,tps\n");
  CHECK(read_tps_series(dir / "progress.csv").empty());
}

TEST_CASE("progress errors name the file and the line") {
  ScratchDir dir;
  const auto path = dir / "progress.csv";
  const std::string file = path.string();
  write_text(path, "time_s,tps\n1,10\n2,ten\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":3: tps value \"ten\" is not a number");
  write_text(path, "time_s,tps\n1,10\n2,nan\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":3: tps value \"nan\" is not a number");
  write_text(path, "time_s,latency_ms\n1,10\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":1: no column \"tps\"");
  write_text(path, "time_s,tps\n1,10\n3,10\n2,10\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":4: time_s 2 goes backwards (previous row: 3)");
  write_text(path, "time_s,tps\n1,10\n1,10\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":3: time_s 1 is repeated (previous row: 1)");
  write_text(path, "time_s,tps\n1,10\n2,10\n2.4,10\n");
  CHECK(error_of([&] { read_tps_series(path, 1); }) ==
        file + ":4: time_s 2.4 falls in the same 1 s interval as the previous row");
}

TEST_CASE("a time_s far below zero is before the start of the run, checked before it is cast to an integer") {
  // -1e300 intervals used to be cast to int64 (undefined behaviour; fuzz_csv).
  std::istringstream in("time_s,tps\n-1e300,1\n");
  CHECK(error_of([&] { read_tps_series(in, "p.csv"); }) == "p.csv:2: time_s -1e+300 is before the start of the run");
}

TEST_CASE("a progress file's totals refuse times going backwards and sums past a 64-bit count") {
  // These used to overflow int64 silently (undefined behaviour; fuzz_csv).
  const auto counts_error = [](const std::string& text) {
    std::istringstream in(text);
    return error_of([&] { read_progress_counts(in, "p.csv"); });
  };
  CHECK(counts_error("time_s,tps,skipped\n1,1,9223372036854775807\n2,1,9223372036854775807\n") ==
        "p.csv:3: the skipped transactions up to here are more than a 64-bit count holds");
  CHECK(counts_error("time_s,tps,late\n1,1,9223372036854775807\n2,1,1\n") ==
        "p.csv:3: the late transactions up to here are more than a 64-bit count holds");
  CHECK(counts_error("time_s,tps\n1e300,1e9\n") ==
        "p.csv:2: the transactions (tps x interval) up to here are more than a 64-bit count holds");
  CHECK(counts_error("time_s,tps\n-1,5\n") == "p.csv:2: time_s -1 is before the start of the run");
  CHECK(counts_error("time_s,tps\n2,5\n1,5\n") == "p.csv:3: time_s 1 goes backwards (previous row: 2)");
  std::istringstream whole("time_s,tps,skipped\n1,1,9223372036854775806\n2,1,1\n");
  CHECK(read_progress_counts(whole, "p.csv").skipped == 9223372036854775807);  // the largest total is exact
}

TEST_CASE(
    "a progress file's totals: transactions from tps x interval, skipped and late summed; bad cells name the line") {
  ScratchDir dir;
  const auto path = dir / "progress.csv";
  const std::string file = path.string();
  write_text(path, "time_s,tps,skipped,late\n1,100,2,1\n3,50,0,4\n");
  const ProgressCounts c = read_progress_counts(path);
  CHECK(c.transactions == 200);  // 100 x 1 s + 50 x 2 s
  CHECK(c.skipped == 2);
  CHECK(c.late == 5);
  write_text(path, "time_s,tps\n1,7\n");
  CHECK(read_progress_counts(path).skipped == 0);  // no such column: nothing counted
  write_text(path, "time_s,tps,skipped\n1,7,1.5\n");
  CHECK(error_of([&] { read_progress_counts(path); }) ==
        file + ":2: skipped \"1.5\" is not a whole number of transactions");
  write_text(path, "time_s,tps\n1,-3\n");
  CHECK(error_of([&] { read_tps_series(path); }) == file + ":2: tps -3 is out of range (0 to 1e9)");
}
