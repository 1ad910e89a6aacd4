// models/postgres/version.cpp
//
// Parsing postgres.version ("9.6", "15") into a PG_VERSION_NUM-like number.
#include "models/postgres/version.h"

#include <charconv>

namespace ckptsim::postgres {

Version::Version(std::string_view text) : num_(170000) {
  int major = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, major);
  if (ec != std::errc() || major <= 0) return;
  if (major >= 10) {
    num_ = major * 10000;
    return;
  }
  int minor = 0;
  if (p != end && *p == '.') std::from_chars(p + 1, end, minor);
  num_ = major * 10000 + minor * 100;
}

}  // namespace ckptsim::postgres
