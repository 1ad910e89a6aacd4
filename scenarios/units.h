// scenarios/units.h
//
// PostgreSQL's units for settings, as postgresql.conf reads them: memory in
// B, kB, MB, GB, TB and time in us, ms, s, min, h, d, all case-sensitive,
// memory in multiples of 1024. A value is a JSON number or a string
// "<number>[ ]<unit>"; a bare number is in the setting's base unit
// (shared_buffers counts 8kB blocks, so 16384 means 128MB). Fractions are
// allowed ("1.5GB", "0.5s") and rounded to the nearest byte / nanosecond;
// PostgreSQL itself rounds to its next smaller unit, a difference that only
// shows below one kB or one microsecond.
//
// Booleans take PostgreSQL's spellings: on/off, true/false, yes/no, 1/0.
// Left out: PostgreSQL's unambiguous prefixes ("of" for off), which read
// poorly in a file meant to be shared.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/time.h"

namespace ckptsim::scenarios {

using json = nlohmann::ordered_json;

// A JSON value as an error message shows it: a string in quotes as written
// (its control characters are escaped once, where every message is printed:
// cli/folder/printable.h), anything else as JSON with invalid UTF-8 replaced
// (never a library exception); at most 80 characters, so that a huge or
// deeply nested input is not echoed whole.
inline std::string shown(const json& value) {
  std::string text;
  if (value.is_string()) {
    text.append(1, '"').append(value.get_ref<const std::string&>()).append(1, '"');
  } else {
    text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

// On failure these return nullopt and, if `expected` is given, set it to the
// rest of the error sentence after the value, e.g.
// `is not a size (expected a number with one of B, kB, ...)`.
std::optional<sim::Bytes> parse_bytes(const json& value, sim::Bytes base_unit, std::string* expected = nullptr);
std::optional<sim::Duration> parse_duration(const json& value, sim::Duration base_unit,
                                            std::string* expected = nullptr);
std::optional<std::int64_t> parse_integer(const json& value, std::string* expected = nullptr);
std::optional<double> parse_real(const json& value, std::string* expected = nullptr);
std::optional<bool> parse_bool(const json& value);

// `s` without leading and trailing white space.
std::string_view trim(std::string_view s);

// In the largest unit that divides the value exactly: "256kB", "2GB", "0".
std::string format_bytes(sim::Bytes bytes);
// Likewise: "5min", "200ms", "0"; below a microsecond, a fraction of "us".
std::string format_duration(sim::Duration duration);

}  // namespace ckptsim::scenarios
