// scenarios/units.cpp
//
// Reading and printing PostgreSQL-style quantities. A number is scanned by
// hand (sign, digits, fraction, exponent) so that "1.5 GB" and "2KB" are told
// apart from numbers before any unit is looked up; whole numbers take an
// exact integer path, fractions go through long double (64-bit mantissa,
// exact for every int64) and are rounded to the nearest unit.
#include "scenarios/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string_view>

namespace ckptsim::scenarios {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

namespace {

struct Unit {
  std::string_view name;
  std::int64_t factor;
};

constexpr std::array<Unit, 5> kMemoryUnits{
    {{"B", 1}, {"kB", sim::kKiB}, {"MB", sim::kMiB}, {"GB", sim::kGiB}, {"TB", sim::kTiB}}};
constexpr std::array<Unit, 6> kTimeUnits{{{"us", sim::kMicrosecond},
                                          {"ms", sim::kMillisecond},
                                          {"s", sim::kSecond},
                                          {"min", sim::kMinute},
                                          {"h", sim::kHour},
                                          {"d", sim::kDay}}};

constexpr std::string_view kNotASize =
    "is not a size (expected a number with one of B, kB, MB, GB, TB, e.g. \"128MB\"; "
    "units are case-sensitive)";
constexpr std::string_view kNotADuration =
    "is not a duration (expected a number with one of us, ms, s, min, h, d, e.g. \"5min\")";

// Length of the leading number in `s` (0 if none) and whether it is whole.
struct NumberScan {
  std::size_t length = 0;
  bool whole = true;
};

NumberScan scan_number(std::string_view s) {
  std::size_t i = 0;
  std::size_t digits = 0;
  NumberScan scan;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    scan.whole = false;
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return {};
  // An exponent only if digits follow it: "1e3" is a number, "1e" is not.
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      i = j;
      scan.whole = false;
    }
  }
  scan.length = i;
  return scan;
}

// number * factor rounded to the nearest integer, or nullopt past int64.
std::optional<std::int64_t> scale_real(long double number, std::int64_t factor) {
  const long double product = std::roundl(number * static_cast<long double>(factor));
  constexpr long double kLimit = 9223372036854775808.0L;  // 2^63
  if (!(product >= -kLimit && product < kLimit)) return std::nullopt;
  return static_cast<std::int64_t>(product);
}

std::optional<std::int64_t> scale_whole(std::int64_t number, std::int64_t factor) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(number, factor, &product)) return std::nullopt;
  return product;
}

enum class Outcome { kOk, kMalformed, kOverflow };

template <std::size_t N>
Outcome parse_quantity(const json& value, std::int64_t base_unit, const std::array<Unit, N>& units, std::int64_t& out) {
  std::optional<std::int64_t> result;
  if (value.is_number_integer() && !value.is_number_unsigned()) {
    result = scale_whole(value.get<std::int64_t>(), base_unit);
  } else if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return Outcome::kOverflow;
    }
    result = scale_whole(static_cast<std::int64_t>(u), base_unit);
  } else if (value.is_number_float()) {
    const double d = value.get<double>();
    if (!std::isfinite(d)) return Outcome::kMalformed;
    result = scale_real(d, base_unit);
  } else if (value.is_string()) {
    const std::string_view text = trim(value.get_ref<const std::string&>());
    const NumberScan scan = scan_number(text);
    if (scan.length == 0) return Outcome::kMalformed;
    const std::string_view number = text.substr(0, scan.length);
    const std::string_view unit_name = trim(text.substr(scan.length));
    std::int64_t factor = base_unit;
    if (!unit_name.empty()) {
      const auto unit = std::find_if(units.begin(), units.end(), [&](const Unit& u) { return u.name == unit_name; });
      if (unit == units.end()) return Outcome::kMalformed;
      factor = unit->factor;
    }
    if (scan.whole) {
      std::int64_t whole = 0;
      const char* first = number.data() + (number.front() == '+' ? 1 : 0);
      const auto [ptr, ec] = std::from_chars(first, number.data() + number.size(), whole);
      if (ec == std::errc::result_out_of_range) return Outcome::kOverflow;
      if (ec != std::errc() || ptr != number.data() + number.size()) return Outcome::kMalformed;
      result = scale_whole(whole, factor);
    } else {
      const std::string copy(number);
      const long double real = std::strtold(copy.c_str(), nullptr);
      if (!std::isfinite(real)) return Outcome::kOverflow;
      result = scale_real(real, factor);
    }
  } else {
    return Outcome::kMalformed;
  }
  if (!result) return Outcome::kOverflow;
  out = *result;
  return Outcome::kOk;
}

void set_expected(std::string* expected, std::string_view text) {
  if (expected != nullptr) *expected = std::string(text);
}

template <std::size_t N>
std::string format_quantity(std::int64_t value, const std::array<Unit, N>& units) {
  if (value == 0) return "0";
  for (auto unit = units.rbegin(); unit != units.rend(); ++unit) {
    if (value % unit->factor == 0) return std::to_string(value / unit->factor) + std::string(unit->name);
  }
  return std::to_string(value);  // unreachable for bytes (B divides all); the caller handles ns
}

}  // namespace

std::optional<sim::Bytes> parse_bytes(const json& value, sim::Bytes base_unit, std::string* expected) {
  std::int64_t bytes = 0;
  switch (parse_quantity(value, base_unit, kMemoryUnits, bytes)) {
    case Outcome::kOk: return bytes;
    case Outcome::kMalformed: set_expected(expected, kNotASize); return std::nullopt;
    case Outcome::kOverflow:
      set_expected(expected, "is out of range (more bytes than a 64-bit count holds)");
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<sim::Duration> parse_duration(const json& value, sim::Duration base_unit, std::string* expected) {
  std::int64_t nanoseconds = 0;
  switch (parse_quantity(value, base_unit, kTimeUnits, nanoseconds)) {
    case Outcome::kOk: return nanoseconds;
    case Outcome::kMalformed: set_expected(expected, kNotADuration); return std::nullopt;
    case Outcome::kOverflow:
      set_expected(expected, "is out of range (more nanoseconds than a 64-bit count holds)");
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::int64_t> parse_integer(const json& value, std::string* expected) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return static_cast<std::int64_t>(u);
    }
    set_expected(expected, "is out of range (more than a 64-bit integer holds)");
    return std::nullopt;
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  // 1e22: JSON writes a whole number too large for an integer with an exponent.
  if (value.is_number_float() && std::abs(value.get<double>()) >= 0x1p63 && std::isfinite(value.get<double>())) {
    set_expected(expected, "is out of range (more than a 64-bit integer holds)");
    return std::nullopt;
  }
  if (value.is_string()) {
    const std::string_view text = trim(value.get_ref<const std::string&>());
    std::int64_t number = 0;
    const char* first = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
    const auto [ptr, ec] = std::from_chars(first, text.data() + text.size(), number);
    if (ec == std::errc() && ptr == text.data() + text.size() && !text.empty()) return number;
    if (ec == std::errc::result_out_of_range) {
      set_expected(expected, "is out of range (more than a 64-bit integer holds)");
      return std::nullopt;
    }
  }
  set_expected(expected, "is not an integer");
  return std::nullopt;
}

std::optional<double> parse_real(const json& value, std::string* expected) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string_view text = trim(value.get_ref<const std::string&>());
    const NumberScan scan = scan_number(text);
    if (scan.length != 0 && scan.length == text.size()) {
      const std::string copy(text);
      const double real = std::strtod(copy.c_str(), nullptr);
      if (std::isfinite(real)) return real;
    }
  }
  set_expected(expected, "is not a number");
  return std::nullopt;
}

std::optional<bool> parse_bool(const json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_integer()) {
    const auto n = value.get<std::int64_t>();
    if (n == 0 || n == 1) return n == 1;
    return std::nullopt;
  }
  if (!value.is_string()) return std::nullopt;
  std::string word(trim(value.get_ref<const std::string&>()));
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (word == "on" || word == "true" || word == "yes" || word == "1") return true;
  if (word == "off" || word == "false" || word == "no" || word == "0") return false;
  return std::nullopt;
}

std::string format_bytes(sim::Bytes bytes) { return format_quantity(bytes, kMemoryUnits); }

std::string format_duration(sim::Duration duration) {
  if (duration % sim::kMicrosecond == 0) return format_quantity(duration, kTimeUnits);
  // No unit below us: print the nanoseconds as a fraction of a microsecond.
  const std::string sign = duration < 0 ? "-" : "";
  const std::uint64_t magnitude =
      duration < 0 ? 0 - static_cast<std::uint64_t>(duration) : static_cast<std::uint64_t>(duration);
  std::string fraction = std::to_string(magnitude % 1000);
  fraction.insert(0, 3 - fraction.size(), '0');
  while (fraction.back() == '0') fraction.pop_back();
  return sign + std::to_string(magnitude / 1000) + "." + fraction + "us";
}

}  // namespace ckptsim::scenarios
