// analysis/text_line.h
//
// The readers of logs and CSVs take their input a line at a time, and no line
// may be longer than kMaxLineBytes: a file that is no text log (/dev/zero, a
// binary, a 1 GB line) is an error naming the line, not a string as long as
// the file. A pgbench -P or aggregate log line is under 200 bytes, a
// progress.csv row under 1 kB.
#pragma once

#include <cstddef>
#include <filesystem>
#include <istream>
#include <string>

namespace ckptsim::analysis {

inline constexpr std::size_t kMaxLineBytes = 1 << 20;

// The next line of `in`, without its '\n', into `line`; false (and eof set on
// `in`) when nothing is left. `number` is the line's, for the message: throws
// std::runtime_error "<file>:<number>: ..." for a line longer than kMaxLineBytes.
bool read_line(std::istream& in, std::string& line, const std::filesystem::path& file, int number);

}  // namespace ckptsim::analysis
