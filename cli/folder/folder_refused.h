// cli/folder/folder_refused.h
//
// The error of an output folder that ckptsim will not write into (it holds
// files ckptsim did not write, another run holds its lock, a page of the
// results index is someone else's): the commands exit 2 for it, having run
// nothing.
#pragma once

#include <exception>
#include <iostream>
#include <stdexcept>

#include "cli/folder/printable.h"

namespace ckptsim::cli {

struct FolderRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A command's failure: the error printed, and its exit code, 2 for a refused
// folder and 1 for anything else (a file that could not be written).
inline int report_failure(const std::exception& e) {
  std::cerr << "error: " << printable(e.what()) << '\n';
  return dynamic_cast<const FolderRefused*>(&e) != nullptr ? 2 : 1;
}

}  // namespace ckptsim::cli
