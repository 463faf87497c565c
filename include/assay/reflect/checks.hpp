// assay/reflect/checks.hpp — the run-time string checks behind the constraint types:
// code-point length, ECMA-262 patterns (a DFA, or Boost.Regex) and RFC 3339 date-time; and the order of
// two RFC 3339 date-times as instants, for rules across members.
#pragma once

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

namespace detail {

// An RFC 3339 date-time as an instant: whole seconds since 1970-01-01T00:00:00Z (the offset
// applied; a leap second 23:59:60 counts as the next day's 00:00:00) and the fraction's digits
// without trailing zeros, kept as text so that any number of digits compares exactly.
struct instant {
  std::int64_t seconds = 0;
  std::string_view fraction;
};

inline std::optional<instant> instant_of(std::string_view s) noexcept {
  if (!is_date_time(s))
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t n) {
    std::int64_t v = 0;
    for (std::size_t i = at; i < at + n; ++i)
      v = v * 10 + (s[i] - '0');
    return v;
  };
  const std::int64_t y = num(0, 4), mo = num(5, 2), d = num(8, 2);
  // Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
  const std::int64_t yy = y - (mo <= 2 ? 1 : 0);
  const std::int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
  const std::int64_t yoe = yy - era * 400;
  const std::int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = era * 146097 + doe - 719468;
  instant t;
  t.seconds = days * 86400 + num(11, 2) * 3600 + num(14, 2) * 60 + num(17, 2);
  std::size_t i = 19;
  if (s[i] == '.') {
    const std::size_t start = ++i;
    while (s[i] >= '0' && s[i] <= '9')  // is_date_time: a zone follows the digits
      ++i;
    std::size_t end = i;
    while (end > start && s[end - 1] == '0')
      --end;
    t.fraction = s.substr(start, end - start);
  }
  if (s[i] == '+' || s[i] == '-') {
    const std::int64_t offset = num(i + 1, 2) * 3600 + num(i + 4, 2) * 60;
    t.seconds += s[i] == '+' ? -offset : offset;
  }
  return t;
}

}  // namespace detail

// The order of two RFC 3339 date-times as instants (offsets applied, fractions of any length
// compared exactly): "2023-11-14T23:13:20+01:00" is equal to "2023-11-14T22:13:20.000Z".
// nullopt when either is not a date-time.
inline std::optional<std::strong_ordering> compare_date_times(std::string_view a, std::string_view b) noexcept {
  const auto x = detail::instant_of(a);
  const auto y = detail::instant_of(b);
  if (!x || !y)
    return std::nullopt;
  if (x->seconds != y->seconds)
    return x->seconds <=> y->seconds;
  // Digit strings without trailing zeros: "5" < "51", "05" < "5", as 0.5 < 0.51 and 0.05 < 0.5.
  const int c = x->fraction.compare(y->fraction);
  return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
}

}  // namespace assay::reflect
