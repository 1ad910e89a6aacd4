// cli/pages/results_index.h
//
// `ckptsim index DIR`: the static pages over every run and grid under DIR
// (cli/pages/index_layout.h says where each page lives). Pages of runs that are no
// longer there are removed; nothing else under DIR is touched.
//
// `ckptsim run` and `ckptsim plot` refresh, when they end, the index of their
// folder (--out, or plot's DIR) and of every folder above it that already
// holds an index.html that ckptsim wrote, so that a results tree indexed once
// stays current without writing into folders the user never indexed.
#pragma once

#include <cstddef>
#include <filesystem>

namespace ckptsim::cli {

struct IndexWritten {
  std::size_t runs = 0, grids = 0, pages = 0;
};

// Replaces only pages it wrote (their generator mark): an index.html or an
// _index/ page of anyone else's, or a symbolic link in a page's place, throws
// FolderRefused (cli/folder/folder_refused.h) naming it, before index.html is written.
// Throws std::runtime_error if DIR is not a folder or a page cannot be written.
IndexWritten write_results_index(const std::filesystem::path& dir);

// The refresh after a run or plot; a failure is a warning on stderr, never an error of the run.
void refresh_indexes(const std::filesystem::path& dir);

}  // namespace ckptsim::cli
