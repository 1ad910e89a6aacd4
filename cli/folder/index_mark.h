// cli/folder/index_mark.h
//
// The mark by which the results index's pages are told from anyone else's: a
// <meta name="generator"> in each page's head. A folder's index.html counts
// as ckptsim's output (replaced by a run, refreshed after one) only with it.
#pragma once

#include <filesystem>
#include <string_view>

namespace ckptsim::cli {

inline constexpr std::string_view kGenerator = "ckptsim index";

// True for a page (an index.html, an _index/ page) whose generator mark says ckptsim wrote it.
bool is_ckptsim_index(const std::filesystem::path& page);

}  // namespace ckptsim::cli
