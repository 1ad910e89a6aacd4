// cli/run/folder_refused.h
//
// The error of an output folder that ckptsim will not write into (it holds
// files ckptsim did not write, another run holds its lock, a page of the
// results index is someone else's): the commands exit 2 for it, having run
// nothing.
#pragma once

#include <stdexcept>

namespace ckptsim::cli {

struct FolderRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ckptsim::cli
