#include "analysis/text_table.h"

#include <algorithm>

namespace ckptsim::analysis {

// One column per code point: every byte but UTF-8's continuation bytes (10xxxxxx) starts one.
std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad_left(std::string_view text, std::size_t width) {
  const std::size_t w = display_width(text);
  return std::string(width > w ? width - w : 0, ' ') + std::string(text);
}

std::string pad_right(std::string_view text, std::size_t width) {
  const std::size_t w = display_width(text);
  return std::string(text) + std::string(width > w ? width - w : 0, ' ');
}

}  // namespace ckptsim::analysis
