// assay/reflect/checks.hpp — the run-time checks behind the constraint types, and the messages
// they report: code-point length, ECMA-262 patterns, RFC 3339 date-times (json/time.hpp),
// numeric bounds and repeated array items.
//
// A pattern fixed at compile time (a str<> type's) is matched by the automaton of pattern.hpp
// when it is in that subset, which in_subset() decides at compile time: a translation unit whose
// patterns all are never includes Boost.Regex. A pattern outside the subset needs
// assay/reflect/regex.hpp included (a static_assert says so otherwise).
#pragma once

#include "assay/error.hpp"
#include "assay/json/number.hpp"
#include "assay/json/time.hpp"
#include "assay/json/value.hpp"  // json::quote_for_message
#include "assay/reflect/pattern.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// For the functions that build error messages: called once in a while, kept out of line so that
// the code of every type that may report one stays small.
#if defined(__GNUC__)
#define ASSAY_COLD [[gnu::cold, gnu::noinline]]
#else
#define ASSAY_COLD
#endif

namespace assay::reflect {

// `s` in double quotes for an error message: made printable (json/printable.hpp), cut after 64 bytes.
inline std::string quoted(std::string_view s) {
  return json::quote_for_message(s);
}

// True when valid UTF-8 `s` has at least `min` code points; reads only as far as it must.
inline bool has_code_points(std::string_view s, std::size_t min) noexcept {
  if (s.size() < min)
    return false;  // a code point takes at least one byte
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size() && n < min; ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
      ++n;
  return n >= min;
}

// --- patterns ----------------------------------------------------------------------------------

enum class pattern_result { match, no_match, too_complex };

// Boost.Regex for the patterns outside the automaton's subset: defined in regex.hpp.
template <class Tag>
struct regex_pattern;

namespace detail {
template <class Tag>
concept regex_included = requires {
  sizeof(regex_pattern<Tag>);
};
}  // namespace detail

// Matches `s` against `Tag::pattern`, an ECMA-262 pattern known at compile time (unanchored;
// '$' only at the very end). Never throws; too_complex only from Boost's limits.
template <class Tag>
pattern_result match_static_pattern(std::string_view s) {
  if constexpr (pattern_dfa::in_subset(Tag::pattern)) {
    static const pattern_dfa dfa = *pattern_dfa::compile(Tag::pattern, pattern_dfa::large::simulate);
    return dfa.search(s) ? pattern_result::match : pattern_result::no_match;
  } else {
    static_assert(detail::regex_included<Tag>,
                  "this pattern is outside the subset of reflect/pattern.hpp: include assay/reflect/regex.hpp "
                  "to match it with Boost.Regex");
    return regex_pattern<Tag>::match(Tag::pattern, s);
  }
}

// RFC 3339 date-times are json/time.hpp's.
using json::compare_date_times;
using json::is_date_time;

// --- messages ------------------------------------------------------------------------------------

namespace detail {

inline std::string number_text(double d) {
  return json::number_to_string(d);
}

ASSAY_COLD inline std::string too_short_message(std::size_t min) {
  return "string is shorter than the minimum length " + std::to_string(min);
}

ASSAY_COLD inline std::string pattern_message(pattern_result m, std::string_view s, std::string_view pattern) {
  return m == pattern_result::too_complex ? "string is too costly to match against the pattern " + std::string(pattern)
                                          : quoted(s) + " does not match the pattern " + std::string(pattern);
}

ASSAY_COLD inline std::string date_time_message(std::string_view s) {
  return quoted(s) + " is not an RFC 3339 date-time";
}

// `shown` (the value as the message shows it) is below `bound` (the minimum) or above it.
ASSAY_COLD inline std::pair<errc, std::string> bound_violation(const std::string& shown, bool below, long long bound) {
  if (below)
    return {errc::below_minimum, shown + " is less than the minimum " + std::to_string(bound)};
  return {errc::above_maximum, shown + " is greater than the maximum " + std::to_string(bound)};
}

ASSAY_COLD inline std::pair<errc, std::string> non_finite_violation(bool nan) {
  return {errc::not_finite, nan ? "NaN is not a number JSON can hold" : "infinity is not a number JSON can hold"};
}

ASSAY_COLD inline std::string item_count_message(std::size_t n, bool few, std::size_t bound) {
  return "array has " + std::to_string(n) +
         (few ? " items, fewer than the minimum " : " items, more than the maximum ") + std::to_string(bound);
}

ASSAY_COLD inline std::string const_message(std::string_view want, std::string_view found) {
  return "expected " + quoted(want) + ", found " + quoted(found);
}

template <class List>
ASSAY_COLD std::string enum_message(std::string_view found, const List& allowed) {
  std::string list;
  for (auto a : allowed)
    list += (list.empty() ? "" : ", ") + quoted(a);
  return quoted(found) + " is not one of " + list;
}

}  // namespace detail

// --- repeated items ------------------------------------------------------------------------------

// Given a key for every item of an array (equal keys for equal items), the pairs {i, j} where
// item i repeats item j, the first item equal to it; in the order of i. Sorting, not hashing:
// O(n log n) comparisons whatever the items are. (A template: compiled only where a unique_list
// is checked.)
template <class Keys>
std::vector<std::pair<std::size_t, std::size_t>> repeated_items(const Keys& keys) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  if (keys.size() < 2)
    return out;
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::size_t first = order[0];
  for (std::size_t k = 1; k < order.size(); ++k) {
    if (keys[order[k]] == keys[first]) {
      out.emplace_back(order[k], first);
    } else {
      first = order[k];
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// `item 2 repeats item 0 ("foo")`: the item shown as its canonical JSON, cut after 128 bytes
// (long enough for a whole sha256 digest string).
ASSAY_COLD inline std::string repeated_item_message(std::size_t item, std::size_t first, std::string_view canonical) {
  constexpr std::size_t max_shown = 128;
  std::string shown;
  if (canonical.size() <= max_shown) {
    shown = canonical;
  } else {
    std::size_t cut = max_shown;
    while (cut > 0 && (static_cast<unsigned char>(canonical[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a UTF-8 sequence
    shown = std::string(canonical.substr(0, cut)) + "...";
    if (canonical.front() == '"')
      shown += '"';
  }
  // Appended piece by piece: g++ 12 warns (-Wrestrict, wrongly) on "literal" + std::to_string().
  std::string out = "item ";
  out += std::to_string(item);
  out += " repeats item ";
  out += std::to_string(first);
  out += " (";
  out += shown;
  out += ')';
  return out;
}

}  // namespace assay::reflect
