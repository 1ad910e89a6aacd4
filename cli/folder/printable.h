// cli/folder/printable.h
//
// Text from a user's files and command line (file names, --out paths, JSON
// key paths, pasted postgresql.conf lines and pgbench commands, fields of a
// log, a summary.json's strings) as ckptsim prints it on a terminal. Every
// error and warning that can echo user input is printed through it, at the
// one place it is printed (the loaders and readers below cli/ build their
// messages as plain text): control characters, which a
// terminal would obey (ESC starts a colour, a title change or worse), are
// shown escaped as C does: \x1b, \n, \r, \t, and '\' as \\. C1 controls
// (U+0080-U+009F, which some terminals take for ESC sequences) and bytes that
// are not UTF-8 are shown as \xNN of each byte; other UTF-8 is kept as it is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ckptsim::cli {

std::string printable(std::string_view text);

// A message of several lines (CLI11's usage errors): each line through
// printable(), the line ends kept.
std::string printable_lines(std::string_view text);

// "1 run", "2 runs", "0 grids": a count with its noun in the right number.
std::string counted(std::size_t n, std::string_view one, std::string_view many);

}  // namespace ckptsim::cli
