// assay/reflect/regex.hpp — ECMA-262 patterns through Boost.Regex, for what the automata of
// pattern.hpp do not cover (`.`, \s, \b, look-around, back-references, ...).
//
// A contract whose str<> patterns are all in that subset does not need this header (checks.hpp
// matches them without Boost). One with a pattern outside it includes this header before
// decoding or encoding; match_pattern() serves patterns known only at run time.
#pragma once

#include "assay/reflect/checks.hpp"
#include "assay/reflect/pattern.hpp"
#include "assay/separate.hpp"

#include <boost/regex.hpp>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace assay::reflect {

namespace detail {

// JSON Schema patterns are ECMA-262 regular expressions, unanchored, where '$' (no multiline
// flag) matches only at the very end. Boost's Perl-style '$' also matches before a final
// newline, so each '$' outside a character class becomes Boost's end-of-buffer assertion \z.
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
      out += "\\z";
      continue;
    }
    out += c;
  }
  return out;
}

// The ECMA-262 regular expression `pattern` compiled for Boost.Regex (throws as Boost does).
template <class = void>
boost::regex boost_regex_of(std::string_view pattern) {
  return boost::regex(ecma_to_boost(pattern), boost::regex::ECMAScript | boost::regex::no_mod_m);
}

// Whether `re` matches somewhere in `s`. Always through the overload that records the match:
// the one without match_results searches with match_any, and Boost 1.74 then misses matches
// ([^a-c]{2,4}/?$ found nothing in a subject ending "4}/?", and matched the same subject less
// its first byte, whatever spelling of '$' it was given). Throws when the match is too costly.
//
// Boost's search loop misses matches even so: [^a6c]{2,4}?,?$ finds nothing in "]{2,8", which
// it matches at offset 2. Its misses are false negatives only, so a "no" on a subject of at
// most search_confirm_limit bytes is confirmed by matching anchored at each offset in turn
// (match_continuous, the previous byte visible to \b and look-behind, never a '^'). That costs
// one match per offset, quadratic on some patterns, hence the bound: a longer subject keeps
// Boost's answer.
inline constexpr std::size_t search_confirm_limit = 4096;

template <class = void>
bool boost_search(const boost::regex& re, std::string_view s) {
  boost::match_results<const char*> m;
  const char* const first = s.data();
  const char* const last = first + s.size();
  if (boost::regex_search(first, last, m, re, boost::match_not_dot_newline))
    return true;
  if (s.size() > search_confirm_limit)
    return false;
  const auto anchored = boost::match_not_dot_newline | boost::match_continuous;
  if (boost::regex_search(first, last, m, re, anchored))
    return true;
  for (const char* p = first; p != last;) {
    ++p;
    if (boost::regex_search(p, last, m, re, anchored | boost::match_prev_avail | boost::match_not_bob))
      return true;
  }
  return false;
}

}  // namespace detail

// The Boost.Regex path alone (compiled once per Tag: pass a pattern with static storage).
template <class Tag>
struct regex_pattern {
  static pattern_result match(std::string_view pattern, std::string_view s) {
    static const boost::regex re = detail::boost_regex_of(pattern);
    try {
      return detail::boost_search(re, s) ? pattern_result::match : pattern_result::no_match;
    } catch (const std::exception&) {
      return pattern_result::too_complex;
    }
  }
};

template <class Tag>
pattern_result match_pattern_boost(std::string_view pattern, std::string_view s) {
  return regex_pattern<Tag>::match(pattern, s);
}

// Matches `s` against the ECMA-262 pattern `pattern`, known only at run time (compiled once per
// Tag; pass a string with static storage). A pattern of the subset of pattern.hpp runs as a DFA,
// in linear time; any other goes to Boost.Regex. Never throws: a match too costly for Boost's
// limits reports too_complex (never the case on the DFA path).
template <class Tag>
pattern_result match_pattern(std::string_view pattern, std::string_view s) {
  static const std::optional<pattern_dfa> dfa = pattern_dfa::compile(pattern);
  if (dfa)
    return dfa->search(s) ? pattern_result::match : pattern_result::no_match;
  return match_pattern_boost<Tag>(pattern, s);
}

}  // namespace assay::reflect

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::reflect::detail {
ASSAY_EXTERN_TEMPLATE boost::regex boost_regex_of<void>(std::string_view);
ASSAY_EXTERN_TEMPLATE bool boost_search<void>(const boost::regex&, std::string_view);
}  // namespace assay::reflect::detail
#endif
