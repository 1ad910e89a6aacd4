// analysis/regular_file.h and analysis/text_line.h: what a reader opens and how much of it it takes.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "analysis/csv.h"
#include "analysis/regular_file.h"
#include "analysis/text_line.h"
#include "scratch_dir.h"

using namespace ckptsim::analysis;
using ckptsim::analysis::testing::ScratchDir;
using ckptsim::analysis::testing::write_text;

TEST_CASE("read_regular_file returns a regular file's head and whether it was cut, nothing for a FIFO or a device") {
  ScratchDir dir;
  write_text(dir.path() / "f.txt", "0123456789");
  const auto whole = read_regular_file(dir.path() / "f.txt", 10);
  REQUIRE(whole);
  CHECK(whole->text == "0123456789");
  CHECK_FALSE(whole->cut);
  const auto head = read_regular_file(dir.path() / "f.txt", 4);
  REQUIRE(head);
  CHECK(head->text == "0123");
  CHECK(head->cut);
  // No writer will ever open this FIFO: a blocking open would never return.
  REQUIRE(::mkfifo((dir.path() / "fifo").c_str(), 0600) == 0);
  CHECK_FALSE(read_regular_file(dir.path() / "fifo", 10));
  CHECK_FALSE(is_readable_regular_file(dir.path() / "fifo"));
  CHECK_FALSE(read_regular_file("/dev/zero", 10));
  CHECK_FALSE(read_regular_file(dir.path(), 10));
  CHECK_FALSE(read_regular_file(dir.path() / "missing", 10));
  const std::string refusal = (dir.path() / "fifo").string() + ": not a regular file";
  CHECK_THROWS_WITH_AS(read_csv(dir.path() / "fifo"), refusal.c_str(), std::runtime_error);
}

TEST_CASE("read_line splits as getline does and refuses a line longer than kMaxLineBytes, naming it") {
  std::istringstream in("a\n\nb");
  std::string line;
  CHECK(read_line(in, line, "t.log", 1));
  CHECK(line == "a");
  CHECK(read_line(in, line, "t.log", 2));
  CHECK(line == "");
  CHECK(read_line(in, line, "t.log", 3));
  CHECK(line == "b");
  CHECK_FALSE(read_line(in, line, "t.log", 4));

  std::istringstream longest(std::string(kMaxLineBytes, 'x') + "\n" + std::string(kMaxLineBytes + 1, 'y'));
  CHECK(read_line(longest, line, "t.log", 1));
  CHECK(line.size() == kMaxLineBytes);
  CHECK_THROWS_WITH_AS(read_line(longest, line, "t.log", 2),
                       "t.log:2: a line longer than 1 MiB: not a text log or CSV (a log's lines are under 1 kB)",
                       std::runtime_error);
}

TEST_CASE("a CSV cell quoted across lines is bounded too, naming the line where its quote opened") {
  std::string text = "time_s,tps\n1,\"";
  for (std::size_t i = 0; i < kMaxLineBytes / 1000 + 2; ++i) text += std::string(1000, '1') + "\n";
  std::istringstream in(text);
  CHECK_THROWS_WITH_AS(read_csv(in, "q.csv"), "q.csv:2: a cell longer than 1 MiB", std::runtime_error);
}
