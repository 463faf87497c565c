// assay/reflect/checks.hpp — the run-time string checks behind the constraint types:
// code-point length and ECMA-262 patterns (a DFA, or Boost.Regex); RFC 3339 date-times come from
// json/time.hpp.
#pragma once

#include "assay/json/time.hpp"
#include "assay/reflect/pattern.hpp"

#include <boost/regex.hpp>

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace assay::reflect {

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

namespace detail {

// JSON Schema patterns are ECMA-262 regular expressions, unanchored, where '$' (no multiline
// flag) matches only at the very end. Boost's Perl-style '$' also matches before a final
// newline, so each '$' outside a character class becomes an end-of-input assertion.
inline std::string ecma_to_boost(std::string_view pattern) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      out += c;
      out += pattern[++i];
      continue;
    }
    if (in_class) {
      if (c == ']')
        in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < pattern.size() && pattern[i + 1] == ']')
        out += pattern[++i];  // "[]...]"
      continue;
    }
    if (c == '$') {
      out += "(?![\\s\\S])";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace detail

enum class pattern_result { match, no_match, too_complex };

// The Boost.Regex path alone (for patterns outside the DFA subset, and to compare the two).
template <class Tag>
pattern_result match_pattern_boost(std::string_view pattern, std::string_view s) {
  static const boost::regex re(detail::ecma_to_boost(pattern), boost::regex::ECMAScript | boost::regex::no_mod_m);
  try {
    return boost::regex_search(s.begin(), s.end(), re, boost::match_not_dot_newline) ? pattern_result::match
                                                                                     : pattern_result::no_match;
  } catch (const std::exception&) {
    return pattern_result::too_complex;
  }
}

// Matches `s` against the ECMA-262 pattern `pattern` (compiled once per distinct pattern
// object; pass a string with static storage). A pattern of the subset of pattern.hpp runs as a
// DFA, in linear time; any other goes to Boost.Regex. Never throws: a match too costly for
// Boost's limits reports too_complex (never the case on the DFA path).
template <class Tag>
pattern_result match_pattern(std::string_view pattern, std::string_view s) {
  static const std::optional<pattern_dfa> dfa = pattern_dfa::compile(pattern);
  if (dfa)
    return dfa->search(s) ? pattern_result::match : pattern_result::no_match;
  return match_pattern_boost<Tag>(pattern, s);
}

// RFC 3339 date-times are json/time.hpp's.
using json::compare_date_times;
using json::is_date_time;

}  // namespace assay::reflect
