#include "analysis/text_line.h"

#include <fmt/format.h>

#include "analysis/tps_series.h"

namespace ckptsim::analysis {

bool read_line(std::istream& in, std::string& line, const std::filesystem::path& file, int number) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  if (!in.good() || buffer == nullptr) {
    in.setstate(std::ios::eofbit | std::ios::failbit);
    return false;
  }
  for (;;) {
    const auto c = buffer->sbumpc();
    if (std::char_traits<char>::eq_int_type(c, std::char_traits<char>::eof())) {
      in.setstate(line.empty() ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (line.size() == kMaxLineBytes) {
      fail_at(file, number,
              fmt::format("a line longer than {} MiB: not a text log or CSV (a log's lines are under 1 kB)",
                          kMaxLineBytes >> 20));
    }
    line.push_back(std::char_traits<char>::to_char_type(c));
  }
}

}  // namespace ckptsim::analysis
