// cli/commands/printable.h
//
// Text from a user's files (file names, fields of a log, a summary.json's
// strings) as ckptsim prints it on a terminal: control characters, which a
// terminal would obey (ESC starts a colour, a title change or worse), are
// shown escaped as C does: \x1b, \n, \r, \t, and '\' as \\. C1 controls
// (U+0080-U+009F, which some terminals take for ESC sequences) and bytes that
// are not UTF-8 are shown as \xNN of each byte; other UTF-8 is kept as it is.
#pragma once

#include <string>
#include <string_view>

namespace ckptsim::cli {

std::string printable(std::string_view text);

}  // namespace ckptsim::cli
