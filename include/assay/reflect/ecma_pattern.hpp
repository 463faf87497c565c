// assay/reflect/ecma_pattern.hpp — an ECMA-262 pattern known only at run time, read over code
// points (JSON Schema's `pattern` and `patternProperties`), matched against hostile text.
//
//   auto p = assay::reflect::ecma_pattern::compile("^/tmp/.*$");   // result<ecma_pattern>
//   p->search(argument);   // pattern_result::match, no_match or too_complex; never throws
//
// The automata of pattern_unicode.hpp match what they cover in time linear in the subject.
// What they cannot express (back-references, look-around, \b) goes to Boost.Regex over UTF-32
// (wchar_t), with `.`, \s, \d, \w and `$` spelt out as ECMA-262 means them, and Boost's
// complexity and memory limits: a match that overruns them is pattern_result::too_complex,
// never a crash or a hang. A pattern that neither accepts is an error.
#pragma once

#include "assay/error.hpp"
#include "assay/json/printable.hpp"
#include "assay/reflect/checks.hpp"
#include "assay/reflect/pattern_unicode.hpp"

#include <boost/regex.hpp>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace assay::reflect {

namespace detail {

// Boost matches wide strings as code points only where wchar_t holds every one.
inline constexpr bool wide_is_utf32 = sizeof(wchar_t) >= 4;

inline void append_hex_escape(std::wstring& out, char32_t cp) {
  static constexpr char digits[] = "0123456789abcdef";
  out += L"\\x{";
  std::wstring hex;
  do {
    hex.insert(hex.begin(), static_cast<wchar_t>(digits[cp & 15]));
    cp >>= 4;
  } while (cp != 0);
  out += hex;
  out += L'}';
}

// `s` (UTF-8) as code points; a byte that starts no well-formed character stands for U+FFFD.
inline std::wstring widen(std::string_view s) {
  std::wstring out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const json::utf8_char u = json::utf8_at(s, i);
    out += static_cast<wchar_t>(u.valid ? u.cp : 0xFFFD);
    i += u.len;
  }
  return out;
}

// An ECMA-262 pattern in Boost's Perl syntax over code points: `$` outside a class is the end of
// the subject (\z); `.` excludes exactly the line terminators; \d \w \s (and their negations
// outside a class) are ECMA-262's sets; \uHHHH, surrogate pairs and \u{H...} become \x{...};
// `[]` matches nothing and `[^]` any code point. Nothing when the pattern is not valid UTF-8.
inline std::optional<std::wstring> ecma_to_boost_wide(std::string_view p) {
  static constexpr std::wstring_view space =
      L"\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
  std::wstring out;
  bool in_class = false;
  auto hex4 = [&](std::size_t at, char32_t& v) {
    if (at + 4 > p.size())
      return false;
    v = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
      const char c = p[k];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0)
        return false;
      v = v * 16 + static_cast<char32_t>(d);
    }
    return true;
  };
  for (std::size_t i = 0; i < p.size();) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      const char e = p[i + 1];
      char32_t cp = 0;
      if (e == 'u' && i + 2 < p.size() && p[i + 2] == '{') {
        const std::size_t close = p.find('}', i + 3);
        if (close == std::string_view::npos)
          return std::nullopt;
        out += L"\\x{";
        out += widen(p.substr(i + 3, close - i - 3));
        out += L'}';
        i = close + 1;
        continue;
      }
      if (e == 'u' && hex4(i + 2, cp)) {
        i += 6;
        char32_t low = 0;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < p.size() && p[i] == '\\' && p[i + 1] == 'u' && hex4(i + 2, low) &&
            low >= 0xDC00 && low <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          i += 6;
        }
        append_hex_escape(out, cp);
        continue;
      }
      const std::wstring_view set = e == 'd' || e == 'D' ? L"0-9" : e == 'w' || e == 'W' ? L"A-Za-z0-9_" : space;
      if (e == 'd' || e == 'w' || e == 's') {
        out += in_class ? std::wstring(set) : L"[" + std::wstring(set) + L"]";
      } else if (!in_class && (e == 'D' || e == 'W' || e == 'S')) {
        out += L"[^" + std::wstring(set) + L"]";
      } else if (e == '0' && (i + 2 >= p.size() || p[i + 2] < '0' || p[i + 2] > '9')) {
        out += L"\\x{0}";
      } else if (e == '/') {
        out += L'/';
      } else {
        out += L'\\';
        out += widen(p.substr(i + 1, json::utf8_at(p, i + 1).len));
      }
      i += 1 + json::utf8_at(p, i + 1).len;
      continue;
    }
    if (in_class) {
      if (c == ']')
        in_class = false;
    } else if (c == '[') {
      if (p.substr(i, 2) == "[]") {
        out += L"(?!)";
        i += 2;
        continue;
      }
      if (p.substr(i, 3) == "[^]") {
        out += L"[\\s\\S]";
        i += 3;
        continue;
      }
      in_class = true;
      out += L'[';
      ++i;
      if (i < p.size() && p[i] == '^') {
        out += L'^';
        ++i;
      }
      continue;
    } else if (c == '$') {
      out += L"\\z";
      ++i;
      continue;
    } else if (c == '.') {
      out += L"[^\\n\\r\\x{2028}\\x{2029}]";
      ++i;
      continue;
    }
    const json::utf8_char u = json::utf8_at(p, i);
    if (!u.valid)
      return std::nullopt;
    out += static_cast<wchar_t>(u.cp);
    i += u.len;
  }
  return out;
}

// Whether `re` matches somewhere in `s`, as boost_search() of regex.hpp does it for bytes: Boost
// sometimes misses a match in a search, so a "no" on a subject of at most wide_confirm_limit code
// points is confirmed by anchored matches at each offset. Throws when the match is too costly.
inline constexpr std::size_t wide_confirm_limit = 256;

inline bool wide_search(const boost::wregex& re, const std::wstring& s) {
  boost::match_results<const wchar_t*> m;
  const wchar_t* const first = s.data();
  const wchar_t* const last = first + s.size();
  if (boost::regex_search(first, last, m, re))
    return true;
  if (s.size() > wide_confirm_limit)
    return false;
  if (boost::regex_search(first, last, m, re, boost::match_continuous))
    return true;
  for (const wchar_t* q = first; q != last;) {
    ++q;
    if (boost::regex_search(q, last, m, re, boost::match_continuous | boost::match_prev_avail | boost::match_not_bob))
      return true;
  }
  return false;
}

}  // namespace detail

class ecma_pattern {
 public:
  // The pattern compiled: to an automaton where it can be, else to Boost.Regex. An error (code
  // unsupported) names the pattern when neither accepts it.
  static result<ecma_pattern> compile(std::string_view pattern) {
    ecma_pattern p;
    p.source_ = std::string(pattern);
    p.dfa_ = compile_code_point_pattern(pattern);
    if (p.dfa_)
      return p;
    const auto wide = detail::ecma_to_boost_wide(pattern);
    if (!wide || !detail::wide_is_utf32)
      return refused(pattern);
    try {
      p.re_ = boost::wregex(*wide, boost::regex::ECMAScript | boost::regex::no_mod_m);
    } catch (const std::exception&) {
      return refused(pattern);
    }
    return p;
  }

  // Whether `s` (UTF-8) contains a match. Never throws.
  pattern_result search(std::string_view s) const noexcept {
    if (dfa_)
      return dfa_->search(s) ? pattern_result::match : pattern_result::no_match;
    try {
      return detail::wide_search(re_, detail::widen(s)) ? pattern_result::match : pattern_result::no_match;
    } catch (...) {
      return pattern_result::too_complex;
    }
  }

  // Whether the automaton matches it (linear time), rather than Boost.
  bool linear() const noexcept { return dfa_.has_value(); }
  const std::string& source() const noexcept { return source_; }

 private:
  static error refused(std::string_view pattern) {
    return make_error(errc::unsupported, "pattern \"" + json::printable(pattern, 200) +
                                             "\" is not an ECMA-262 regular expression that assay can match");
  }

  std::string source_;
  std::optional<pattern_dfa> dfa_;
  boost::wregex re_;
};

}  // namespace assay::reflect
