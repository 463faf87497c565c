// assay/lint/glob.hpp — the event-type globs of `event_pairs` and `event_type_exists` (SPEC §11).
//
//   auto g = assay::lint::glob::compile("assay.*.{started,finished}");
//   if (!g) ...;                       // malformed: the rule reports "Invalid pattern: <p>"
//   g->matches("assay.profile.started");   // true
//
// A glob matches the whole type, case-sensitively, by characters (UTF-8): `*` any run (empty,
// and `/` included), `?` one character, `[abc]`, `[!abc]` (also `[^abc]`), `[a-z]` (a `]` first
// in a class is itself, a `-` first or last too), `{a,b}` alternatives (not nested), `\x` the
// character x. Malformed: an unclosed `[` or `{`, a nested `{`, a reversed range, a trailing `\`.
#pragma once

#include "assay/separate.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

template <class = void>
class basic_glob {
 public:
  static std::optional<basic_glob> compile(std::string_view pattern) {
    basic_glob g;
    std::vector<std::vector<token>> alts{{}};  // the alternatives built so far
    std::size_t i = 0;
    while (i < pattern.size()) {
      if (pattern[i] == '{') {
        std::vector<std::vector<token>> options{{}};
        ++i;
        bool closed = false;
        while (i < pattern.size()) {
          if (pattern[i] == '}') {
            closed = true;
            ++i;
            break;
          }
          if (pattern[i] == ',') {
            options.emplace_back();
            ++i;
            continue;
          }
          if (pattern[i] == '{')
            return std::nullopt;
          if (!read_token(pattern, i, options.back()))
            return std::nullopt;
        }
        if (!closed)
          return std::nullopt;
        if (alts.size() * options.size() > max_alternatives)
          return std::nullopt;
        std::vector<std::vector<token>> next;
        for (const auto& a : alts)
          for (const auto& o : options) {
            next.push_back(a);
            next.back().insert(next.back().end(), o.begin(), o.end());
          }
        alts = std::move(next);
        continue;
      }
      std::vector<token> one;
      if (!read_token(pattern, i, one))
        return std::nullopt;
      for (auto& a : alts)
        a.insert(a.end(), one.begin(), one.end());
    }
    g.alternatives_ = std::move(alts);
    return g;
  }

  bool matches(std::string_view text) const {
    std::vector<char32_t> chars;
    chars.reserve(text.size());
    for (std::size_t i = 0; i < text.size();)
      chars.push_back(decode(text, i));
    for (const auto& a : alternatives_)
      if (match(a, chars))
        return true;
    return false;
  }

 private:
  static constexpr std::size_t max_alternatives = 4096;

  struct token {
    enum class kind : std::uint8_t { literal, any_one, any_run, set } type = kind::literal;
    char32_t c = 0;
    bool negated = false;
    std::vector<std::pair<char32_t, char32_t>> ranges{};
  };

  static char32_t decode(std::string_view s, std::size_t& i) {
    const auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (i + static_cast<std::size_t>(len) > s.size())
      len = 1;
    char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (int k = 1; k < len; ++k)
      c = (c << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
    i += static_cast<std::size_t>(len);
    return c;
  }

  // One token at pattern[i] (not '{'), appended to `out`; false when malformed.
  static bool read_token(std::string_view p, std::size_t& i, std::vector<token>& out) {
    token t;
    const char c = p[i];
    if (c == '*') {
      while (i < p.size() && p[i] == '*')
        ++i;
      t.type = token::kind::any_run;
    } else if (c == '?') {
      ++i;
      t.type = token::kind::any_one;
    } else if (c == '\\') {
      ++i;
      if (i == p.size())
        return false;
      t.c = decode(p, i);
    } else if (c == '[') {
      ++i;
      t.type = token::kind::set;
      if (i < p.size() && (p[i] == '!' || p[i] == '^')) {
        t.negated = true;
        ++i;
      }
      bool first = true, closed = false;
      while (i < p.size()) {
        if (p[i] == ']' && !first) {
          closed = true;
          ++i;
          break;
        }
        first = false;
        const char32_t lo = decode(p, i);
        char32_t hi = lo;
        if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
          ++i;
          hi = decode(p, i);
          if (hi < lo)
            return false;
        }
        t.ranges.emplace_back(lo, hi);
      }
      if (!closed)
        return false;
    } else {
      t.c = decode(p, i);
    }
    out.push_back(std::move(t));
    return true;
  }

  static bool one(const token& t, char32_t c) {
    switch (t.type) {
      case token::kind::literal:
        return t.c == c;
      case token::kind::any_one:
        return true;
      case token::kind::set: {
        bool in = false;
        for (const auto& [lo, hi] : t.ranges)
          in = in || (c >= lo && c <= hi);
        return in != t.negated;
      }
      case token::kind::any_run:
        break;
    }
    return false;
  }

  // Wildcard matching with one backtrack point (the last '*'): O(pattern × text).
  static bool match(const std::vector<token>& p, const std::vector<char32_t>& s) {
    std::size_t pi = 0, si = 0, star = static_cast<std::size_t>(-1), mark = 0;
    while (si < s.size()) {
      if (pi < p.size() && p[pi].type == token::kind::any_run) {
        star = pi++;
        mark = si;
      } else if (pi < p.size() && one(p[pi], s[si])) {
        ++pi;
        ++si;
      } else if (star != static_cast<std::size_t>(-1)) {
        pi = star + 1;
        si = ++mark;
      } else {
        return false;
      }
    }
    while (pi < p.size() && p[pi].type == token::kind::any_run)
      ++pi;
    return pi == p.size();
  }

  std::vector<std::vector<token>> alternatives_;
};
using glob = basic_glob<>;

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE class basic_glob<void>;
}  // namespace assay::lint
#endif
