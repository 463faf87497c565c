// assay/json/nearest.hpp — the name someone probably meant: "did you mean" for commands, contracts
// and packs.
//
//   if (auto s = assay::json::nearest_name("soak-report", names)) ...   // "soak-report-v1"
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace assay::json {

// The optimal string alignment distance over bytes: insertions, deletions, substitutions and
// swaps of two neighbours each cost 1.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// The name of `names` that `word` was probably meant to be: one it is a prefix of (or that is a
// prefix of it), or one within an edit distance of a third of the name's length (at least 1,
// `max_distance` when given); the closest such, the first on a tie. nullopt when none is close.
template <class Names>
std::optional<std::string_view> nearest_name(std::string_view word, const Names& names,
                                             std::optional<std::size_t> max_distance = std::nullopt) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  if (word.empty())
    return best;
  for (const auto& n : names) {
    const std::string_view name(n);
    const std::size_t d = edit_distance(word, name);
    const bool prefix = name.substr(0, word.size()) == word || word.substr(0, name.size()) == name;
    const std::size_t tolerance = max_distance.value_or(std::max<std::size_t>(1, name.size() / 3));
    if ((prefix || d <= tolerance) && (!best || d < best_distance)) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace assay::json
