#include "cli/folder/index_mark.h"

#include <string>

#include "analysis/regular_file.h"

namespace ckptsim::cli {

bool is_ckptsim_index(const std::filesystem::path& page) {
  const auto head = analysis::read_regular_file(page, 2048);
  return head &&
         head->text.find("<meta name=\"generator\" content=\"" + std::string(kGenerator) + "\"") != std::string::npos;
}

}  // namespace ckptsim::cli
