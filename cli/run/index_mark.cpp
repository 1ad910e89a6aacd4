#include "cli/run/index_mark.h"

#include <fstream>
#include <string>

namespace ckptsim::cli {

bool is_ckptsim_index(const std::filesystem::path& page) {
  std::ifstream in(page);
  std::string head(2048, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find("<meta name=\"generator\" content=\"" + std::string(kGenerator) + "\"") != std::string::npos;
}

}  // namespace ckptsim::cli
