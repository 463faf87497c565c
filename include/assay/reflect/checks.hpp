// assay/reflect/checks.hpp — the run-time string checks behind the constraint types:
// code-point length, ECMA-262 patterns (Boost.Regex) and RFC 3339 date-time.
#pragma once

#include "assay/reflect/pattern.hpp"

#include <boost/regex.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace assay::reflect {

// Number of code points of valid UTF-8 (continuation bytes are not counted).
inline std::size_t code_points(std::string_view s) noexcept {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
      ++n;
  return n;
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

// RFC 3339 §5.6 date-time: full-date "T" full-time, with 'T' and 'Z' in either case.
inline bool is_date_time(std::string_view s) noexcept {
  auto digits = [&](std::size_t at, std::size_t n, int& out) {
    if (at + n > s.size())
      return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9')
        return false;
      out = out * 10 + (s[i] - '0');
    }
    return true;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(5, 2, month) || s[7] != '-' ||
      !digits(8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(11, 2, hour) || s[13] != ':' ||
      !digits(14, 2, minute) || s[16] != ':' || !digits(17, 2, second)) {
    return false;
  }
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60)
    return false;
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int max_day = days[month - 1] + (month == 2 && leap ? 1 : 0);
  if (day < 1 || day > max_day)
    return false;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
      ++i;
    if (i == start)
      return false;
  }
  if (i >= s.size())
    return false;
  if (s[i] == 'Z' || s[i] == 'z')
    return i + 1 == s.size();
  if (s[i] != '+' && s[i] != '-')
    return false;
  int oh = 0, om = 0;
  if (!digits(i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(i + 4, 2, om))
    return false;
  return i + 6 == s.size() && oh <= 23 && om <= 59;
}

}  // namespace assay::reflect
