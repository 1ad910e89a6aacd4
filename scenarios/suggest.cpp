// scenarios/suggest.cpp
//
// Edit distance with one rolling row; names are short, so the quadratic
// cost does not matter.
#include "scenarios/suggest.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace ckptsim::scenarios {

namespace {

std::string lower(const std::string& s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::optional<std::string> nearest_name(const std::string& typed, const std::vector<std::string>& known) {
  const std::string typed_lower = lower(typed);
  // A third of the name may be wrong, and at least two characters.
  const std::size_t allowed = std::max<std::size_t>(2, typed.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& name : known) {
    const std::size_t distance = edit_distance(typed_lower, lower(name));
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace ckptsim::scenarios
