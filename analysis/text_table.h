// analysis/text_table.h
//
// Padding for the fixed-width text tables of report.txt: widths are counted
// in code points, so a "±" (two bytes of UTF-8) takes one column as a
// terminal shows it.
//
// Left out: East Asian wide characters and combining marks (the tables hold
// numbers, setting values and "±").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ckptsim::analysis {

std::size_t display_width(std::string_view text);
std::string pad_left(std::string_view text, std::size_t width);
std::string pad_right(std::string_view text, std::size_t width);

}  // namespace ckptsim::analysis
