// scenarios/same_layer.cpp
#include "scenarios/same_layer.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ckptsim::scenarios {

namespace {

// (ratio, bytes): the pairs of which the kernel keeps one.
constexpr std::array<std::pair<const char*, const char*>, 2> kDirtyPairs{{
    {"vm.dirty_ratio", "vm.dirty_bytes"},
    {"vm.dirty_background_ratio", "vm.dirty_background_bytes"},
}};

// A bytes value that is not 0 (an unreadable one is the schema's to report).
bool nonzero_bytes(const json& value) {
  std::string ignored;
  const auto bytes = parse_bytes(value, 1, &ignored);
  return bytes && *bytes != 0;
}

std::string shown_where(const Written& w) { return w.where + " (" + shown(w.value) + ")"; }

}  // namespace

std::optional<std::string> bytes_zeroed_by(const std::string& key) {
  for (const auto& [ratio, bytes] : kDirtyPairs) {
    if (key == ratio) return std::string(bytes);
  }
  return std::nullopt;
}

void check_one_layer(const std::string& section, const std::vector<Written>& written, Errors& errors) {
  for (const Written& typed : written) {
    if (typed.pasted) continue;
    const Written* last_pasted = nullptr;  // the line that takes effect
    for (const Written& pasted : written) {
      if (pasted.pasted && pasted.key == typed.key) last_pasted = &pasted;
    }
    if (last_pasted == nullptr) continue;
    errors.add(typed.where, shown(typed.value) + " is also set by " + shown_where(*last_pasted) + ": give " +
                                typed.key + " once, in the pasted text or as a JSON key");
  }
  if (section != "os") return;
  for (const auto& [ratio_key, bytes_key] : kDirtyPairs) {
    for (const Written& ratio : written) {
      if (ratio.key != ratio_key) continue;
      for (const Written& bytes : written) {
        if (bytes.key != bytes_key || !nonzero_bytes(bytes.value) || (ratio.pasted && bytes.pasted)) continue;
        errors.add(bytes.where, shown(bytes.value) + " is given together with " + shown_where(ratio) +
                                    ": the kernel keeps only the last written of " + ratio_key + " and " + bytes_key +
                                    " (writing one zeroes the other); give one");
      }
    }
  }
}

void check_grid_pairs(const std::vector<std::pair<std::string, std::vector<json>>>& axes, Errors& errors) {
  for (const auto& [ratio_key, bytes_key] : kDirtyPairs) {
    const auto axis = [&](const std::string& key) {
      return std::find_if(axes.begin(), axes.end(), [&](const auto& a) { return a.first == "os." + key; });
    };
    const auto ratio = axis(ratio_key);
    const auto bytes = axis(bytes_key);
    if (ratio == axes.end() || bytes == axes.end()) continue;
    if (std::none_of(bytes->second.begin(), bytes->second.end(), nonzero_bytes)) continue;
    errors.add("/grid/" + bytes->first, "varies together with /grid/" + ratio->first +
                                            ": the kernel keeps only the last written of the two; vary one");
  }
}

}  // namespace ckptsim::scenarios
