#include "cli/commands/options.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace ckptsim::cli {

namespace {

// `accepts` says whether the text is valid, `expected` what a valid one is.
CLI::Validator readable(std::string name, std::string expected, bool (*accepts)(const std::string&)) {
  return CLI::Validator(
      [expected, accepts](std::string& text) -> std::string {
        return accepts(text) ? "" : "expected " + expected + ", not \"" + text + "\"";
      },
      std::move(name));
}

// The whole text read as a number of type T by std::from_chars.
template <class T>
std::optional<T> whole_text_as(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

const CLI::Validator& count_at_least_one() {
  static const CLI::Validator v = readable("1..4096", "a whole number from 1 to 4096", [](const std::string& t) {
    const auto n = whole_text_as<long long>(t);
    return n && *n >= 1 && *n <= 4096;
  });
  return v;
}

const CLI::Validator& tps_threshold() {
  static const CLI::Validator v = readable("TPS >= 0", "a number of tps of at least 0", [](const std::string& t) {
    const auto n = whole_text_as<double>(t);
    return n && std::isfinite(*n) && *n >= 0;
  });
  return v;
}

const CLI::Validator& positive_seconds() {
  static const CLI::Validator v = readable("SECONDS > 0", "a number of seconds above 0", [](const std::string& t) {
    const auto n = whole_text_as<double>(t);
    return n && std::isfinite(*n) && *n > 0;
  });
  return v;
}

const CLI::Validator& unsigned_64() {
  static const CLI::Validator v =
      readable("UINT64", "a whole number from 0 to 18446744073709551615", [](const std::string& t) {
        return t.find_first_not_of("0123456789") == std::string::npos && whole_text_as<std::uint64_t>(t).has_value();
      });
  return v;
}

const CLI::Validator& folder_path() {
  static const CLI::Validator v = readable("DIR", "a folder path", [](const std::string& t) { return !t.empty(); });
  return v;
}

}  // namespace ckptsim::cli
