// sim/enum_names.h
//
// A behaviour switch as an enum with the names its owner uses in settings
// ("io-less", "prepared", "sata"): one table per enum, declared next to the
// enum, read by the scenario loader (names to values) and by outputs (values
// back to the same names). A typo in a model no longer compiles; a typo in a
// scenario is an error that lists the names.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace ckptsim::sim {

template <class E, std::size_t N>
using EnumNames = std::array<std::pair<std::string_view, E>, N>;

template <class E, std::size_t N>
constexpr std::optional<E> enum_from_name(const EnumNames<E, N>& names, std::string_view name) {
  for (const auto& [text, value] : names) {
    if (text == name) return value;
  }
  return std::nullopt;
}

// The value's name; every value of E appears in its table.
template <class E, std::size_t N>
constexpr std::string_view enum_name(const EnumNames<E, N>& names, E value) {
  for (const auto& [text, v] : names) {
    if (v == value) return text;
  }
  return {};
}

}  // namespace ckptsim::sim
