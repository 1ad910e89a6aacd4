#include "cli/folder/printable.h"

#include <algorithm>

#include <fmt/format.h>

namespace ckptsim::cli {

namespace {

// The length of the valid UTF-8 sequence at text[at] (RFC 3629: no overlong
// forms, no surrogates, at most U+10FFFF) that is not a C1 control, else 0.
std::size_t printable_utf8_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  std::size_t length = 0;
  char32_t code = 0, least = 0;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2, code = lead & 0x1f, least = 0xa0;  // U+0080-009F: C1
  else if (lead >= 0xe0 && lead <= 0xef) length = 3, code = lead & 0x0f, least = 0x800;
  else if (lead >= 0xf0 && lead <= 0xf4) length = 4, code = lead & 0x07, least = 0x10000;
  else return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(at + i) & 0x3f);
  }
  if (code < least || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[at]);
    if (c >= 0x80) {
      if (const std::size_t length = printable_utf8_length(text, at)) {
        out += text.substr(at, length);
        at += length;
      } else {
        out += fmt::format("\\x{:02x}", c);
        ++at;
      }
      continue;
    }
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", c);
        else out += static_cast<char>(c);
    }
    ++at;
  }
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    out += printable(text.substr(at, end - at));
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

}  // namespace ckptsim::cli
