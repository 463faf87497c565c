// assay/reflect/pattern_unicode.hpp — ECMA-262 patterns read over code points, as JSON Schema
// reads `pattern` and `patternProperties`, compiled to the byte automata of pattern.hpp.
//
// The byte syntax of pattern.hpp is what contracts use, and stays as it is. This is a second
// reading of a pattern, with the `u` flag's meaning: `.` is any code point but the line
// terminators (LF, CR, U+2028, U+2029); \s \S \d \D \w \W and classes, negated or not, are sets
// of code points; a literal character, escaped or written as itself, is one code point, so a
// quantifier after it repeats the whole character. Each set of code points becomes the UTF-8
// byte sequences that encode it (a handful of byte ranges per sequence), so the automaton stays
// one over bytes, linear in the subject, and a subject of valid UTF-8 is matched as a sequence
// of code points: a match can only start on the first byte of a character.
//
// Covered: literals; the escapes \t \n \v \f \r \0 \cX \xHH \uHHHH (surrogate pairs joined)
// \u{H...} and escaped punctuation; `.`; classes with ranges, negation, `[]` and `[^]`; groups,
// capturing, non-capturing and named; alternation; * + ? {n} {n,} {n,m} and their lazy forms;
// ^ as the first and $ as the last atom of a top-level branch. Not covered, so that a caller
// turns to Boost.Regex (ecma_pattern.hpp): back-references, look-around, \b \B, \p{...},
// anchors elsewhere, and patterns whose automaton would be too large to build or simulate.
#pragma once

#include "assay/json/printable.hpp"
#include "assay/reflect/pattern.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::reflect {

// A set of code points: sorted, disjoint, non-adjacent ranges.
class code_point_set {
 public:
  static constexpr char32_t max_code_point = 0x10FFFF;

  code_point_set() = default;
  code_point_set(char32_t lo, char32_t hi) { add(lo, hi); }

  void add(char32_t lo, char32_t hi) {
    ranges_.emplace_back(lo, hi);
    normalize();
  }
  void add(const code_point_set& o) {
    ranges_.insert(ranges_.end(), o.ranges_.begin(), o.ranges_.end());
    normalize();
  }
  code_point_set complement() const {
    code_point_set out;
    char32_t next = 0;
    for (const auto& [lo, hi] : ranges_) {
      if (lo > next)
        out.ranges_.emplace_back(next, lo - 1);
      next = hi + 1;
    }
    if (next <= max_code_point)
      out.ranges_.emplace_back(next, max_code_point);
    return out;
  }
  // Without the surrogates, which no valid UTF-8 encodes.
  code_point_set encodable() const {
    code_point_set out;
    for (const auto& [lo, hi] : ranges_) {
      if (hi < 0xD800 || lo > 0xDFFF) {
        out.ranges_.emplace_back(lo, hi);
        continue;
      }
      if (lo < 0xD800)
        out.ranges_.emplace_back(lo, 0xD7FF);
      if (hi > 0xDFFF)
        out.ranges_.emplace_back(0xE000, hi);
    }
    return out;
  }
  const std::vector<std::pair<char32_t, char32_t>>& ranges() const noexcept { return ranges_; }
  bool single(char32_t& cp) const noexcept {
    if (ranges_.size() != 1 || ranges_[0].first != ranges_[0].second)
      return false;
    cp = ranges_[0].first;
    return true;
  }

  // ECMA-262's classes (WhiteSpace and LineTerminator for \s).
  static code_point_set digits() { return {U'0', U'9'}; }
  static code_point_set word() {
    code_point_set s(U'0', U'9');
    s.add(U'A', U'Z');
    s.add(U'_', U'_');
    s.add(U'a', U'z');
    return s;
  }
  static code_point_set space() {
    code_point_set s(0x09, 0x0D);
    for (const char32_t c : {char32_t{0x20}, char32_t{0xA0}, char32_t{0x1680}, char32_t{0x2028}, char32_t{0x2029},
                             char32_t{0x202F}, char32_t{0x205F}, char32_t{0x3000}, char32_t{0xFEFF}})
      s.add(c, c);
    s.add(0x2000, 0x200A);
    return s;
  }
  // What `.` matches: everything but the line terminators.
  static code_point_set dot() {
    code_point_set s(0x0A, 0x0A);
    s.add(0x0D, 0x0D);
    s.add(0x2028, 0x2029);
    return s.complement();
  }

 private:
  void normalize() {
    std::sort(ranges_.begin(), ranges_.end());
    std::vector<std::pair<char32_t, char32_t>> out;
    for (const auto& r : ranges_) {
      if (!out.empty() && r.first <= out.back().second + 1) {
        out.back().second = std::max(out.back().second, r.second);
      } else {
        out.push_back(r);
      }
    }
    ranges_ = std::move(out);
  }

  std::vector<std::pair<char32_t, char32_t>> ranges_;
};

namespace detail {

// One UTF-8 sequence shape: a byte range per position.
struct utf8_sequence {
  std::array<std::pair<std::uint8_t, std::uint8_t>, 4> bytes{};
  std::size_t length = 0;
};

inline std::size_t utf8_length(char32_t cp) noexcept {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

inline std::array<std::uint8_t, 4> utf8_encode(char32_t cp) noexcept {
  std::array<std::uint8_t, 4> b{};
  const std::size_t n = utf8_length(cp);
  if (n == 1) {
    b[0] = static_cast<std::uint8_t>(cp);
    return b;
  }
  for (std::size_t k = n; k-- > 1;) {
    b[k] = static_cast<std::uint8_t>(0x80 | (cp & 0x3F));
    cp >>= 6;
  }
  static constexpr std::uint8_t lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
  b[0] = static_cast<std::uint8_t>(lead[n] | cp);
  return b;
}

// The code points lo..hi (not surrogates) as sequences whose every byte ranges independently:
// split at the boundaries of the encoded lengths, then wherever the low bits of lo or hi would
// make a position depend on the one before it.
inline void utf8_sequences(char32_t lo, char32_t hi, std::vector<utf8_sequence>& out) {
  for (const char32_t bound : {char32_t{0x7F}, char32_t{0x7FF}, char32_t{0xFFFF}}) {
    if (lo <= bound && hi > bound) {
      utf8_sequences(lo, bound, out);
      utf8_sequences(bound + 1, hi, out);
      return;
    }
  }
  const std::size_t n = utf8_length(lo);
  for (std::size_t k = 1; k < n; ++k) {
    const char32_t m = (char32_t{1} << (6 * k)) - 1;
    if ((lo & ~m) != (hi & ~m)) {
      if ((lo & m) != 0) {
        utf8_sequences(lo, lo | m, out);
        utf8_sequences((lo | m) + 1, hi, out);
        return;
      }
      if ((hi & m) != m) {
        utf8_sequences(lo, (hi & ~m) - 1, out);
        utf8_sequences(hi & ~m, hi, out);
        return;
      }
    }
  }
  const auto a = utf8_encode(lo), b = utf8_encode(hi);
  utf8_sequence s;
  s.length = n;
  for (std::size_t k = 0; k < n; ++k)
    s.bytes[k] = {a[k], b[k]};
  out.push_back(s);
}

}  // namespace detail

// The parser of the code-point syntax, onto the tree of basic_pattern_dfa (a friend of it).
template <class Dfa>
struct code_point_syntax {
  using node = typename Dfa::node;
  using tree = typename Dfa::tree;
  using byteset = typename Dfa::byteset;
  using program = typename Dfa::program;

  // Larger than the byte syntax allows: a code-point class is a few instructions per sequence.
  static constexpr std::size_t max_program = 32768;
  static constexpr std::size_t max_states = 4096;

  std::string_view s;
  std::vector<node>& nodes;
  std::size_t i = 0;
  bool ok = true;

  static std::optional<Dfa> compile(std::string_view pattern) {
    tree t;
    code_point_syntax p{pattern, t.nodes};
    t.root = p.alternation(0);
    if (!p.ok || p.i != pattern.size())
      return std::nullopt;
    program prog;
    prog.limit = max_program;
    if (!prog.emit_all(t))
      return std::nullopt;
    Dfa d;
    if (!d.build(prog, max_states)) {
      Dfa sim;
      sim.nfa_ = std::move(prog.code);
      return sim;
    }
    d.build_shapes(t);
    return d;
  }

  std::uint32_t make(typename node::kind_t k) {
    nodes.push_back(node{k, {}, {}, 0, 0});
    return static_cast<std::uint32_t>(nodes.size() - 1);
  }

  std::uint32_t byte_range(std::uint8_t lo, std::uint8_t hi) {
    const std::uint32_t n = make(node::set);
    Dfa::add_range(nodes[n].bytes, lo, hi);
    return n;
  }

  // The UTF-8 encodings of `set` as a node: one byte set for the one-byte sequences, a
  // concatenation of byte sets for each longer one, the alternation of all.
  std::uint32_t set_node(const code_point_set& set) {
    std::vector<detail::utf8_sequence> seqs;
    const code_point_set encodable = set.encodable();
    for (const auto& [lo, hi] : encodable.ranges())
      detail::utf8_sequences(lo, hi, seqs);
    const std::uint32_t ascii = make(node::set);
    bool any_ascii = false;
    std::vector<std::uint32_t> alts;
    for (const auto& q : seqs) {
      if (q.length == 1) {
        Dfa::add_range(nodes[ascii].bytes, q.bytes[0].first, q.bytes[0].second);
        any_ascii = true;
        continue;
      }
      const std::uint32_t c = make(node::cat);
      for (std::size_t k = 0; k < q.length; ++k) {
        const std::uint32_t b = byte_range(q.bytes[k].first, q.bytes[k].second);
        nodes[c].kids.push_back(b);
      }
      alts.push_back(c);
    }
    if (alts.empty())
      return ascii;  // possibly empty: matches nothing
    if (any_ascii)
      alts.insert(alts.begin(), ascii);
    if (alts.size() == 1)
      return alts[0];
    const std::uint32_t a = make(node::alt);
    nodes[a].kids = std::move(alts);
    return a;
  }

  std::uint32_t alternation(int depth) {
    if (depth > 32) {
      ok = false;
      return 0;
    }
    const std::uint32_t first = concat(depth);
    if (!ok || i >= s.size() || s[i] != '|')
      return first;
    const std::uint32_t a = make(node::alt);
    nodes[a].kids.push_back(first);
    while (ok && i < s.size() && s[i] == '|') {
      ++i;
      const std::uint32_t k = concat(depth);
      nodes[a].kids.push_back(k);
    }
    return a;
  }

  // ^ and $ where the byte syntax takes them (first and last atom of a top-level branch).
  std::uint32_t concat(int depth) {
    const std::uint32_t c = make(node::cat);
    bool ended = false;
    while (ok && i < s.size() && s[i] != '|' && s[i] != ')') {
      if (ended) {
        ok = false;
        return c;
      }
      std::uint32_t a = atom(depth);
      if (!ok)
        return c;
      if (nodes[a].kind == node::bol && (depth != 0 || !nodes[c].kids.empty())) {
        ok = false;
        return c;
      }
      if (nodes[a].kind == node::eol) {
        if (depth != 0) {
          ok = false;
          return c;
        }
        ended = true;
      }
      quantified(a);
      nodes[c].kids.push_back(a);
    }
    return c;
  }

  static bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

  bool number(std::size_t& out) {
    if (i >= s.size() || !digit(s[i]))
      return false;
    std::size_t v = 0;
    while (i < s.size() && digit(s[i])) {
      v = v * 10 + static_cast<std::size_t>(s[i] - '0');
      if (v > 1000)
        return false;
      ++i;
    }
    out = v;
    return true;
  }

  void quantified(std::uint32_t& a) {
    while (ok && i < s.size()) {
      std::size_t lo = 0, hi = 0;
      const char c = s[i];
      if (c == '*' || c == '+' || c == '?') {
        lo = c == '+' ? 1 : 0;
        hi = c == '?' ? 1 : Dfa::unbounded;
        ++i;
      } else if (c == '{') {
        ++i;
        if (!number(lo)) {
          ok = false;
          return;
        }
        hi = lo;
        if (i < s.size() && s[i] == ',') {
          ++i;
          hi = Dfa::unbounded;
          if (i < s.size() && digit(s[i]) && !number(hi)) {
            ok = false;
            return;
          }
        }
        if (i >= s.size() || s[i] != '}' || hi < lo) {
          ok = false;
          return;
        }
        ++i;
      } else {
        return;
      }
      if (i < s.size() && s[i] == '?')
        ++i;  // lazy: the same language
      if (i < s.size() && (s[i] == '*' || s[i] == '+' || s[i] == '?' || s[i] == '{')) {
        ok = false;
        return;
      }
      if (nodes[a].kind == node::bol || nodes[a].kind == node::eol) {
        ok = false;
        return;
      }
      const std::uint32_t r = make(node::repeat);
      nodes[r].min = lo;
      nodes[r].max = hi;
      nodes[r].kids.push_back(a);
      a = r;
    }
  }

  // The code point at i (the pattern is UTF-8), consumed.
  bool literal(char32_t& cp) {
    const json::utf8_char u = json::utf8_at(s, i);
    if (!u.valid)
      return false;
    cp = u.cp;
    i += u.len;
    return true;
  }

  bool hex(std::size_t digits, char32_t& out) {
    out = 0;
    for (std::size_t k = 0; k < digits; ++k, ++i) {
      if (i >= s.size())
        return false;
      const char c = s[i];
      const int v = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (v < 0)
        return false;
      out = out * 16 + static_cast<char32_t>(v);
    }
    return true;
  }

  // After a backslash: the set the escape stands for (one code point for a character escape).
  // `in_class`: \b is a backspace there, and \- a hyphen.
  bool escape(code_point_set& out, bool in_class) {
    if (i >= s.size())
      return false;
    const char e = s[i++];
    char32_t cp = 0;
    switch (e) {
      case 'd':
        out = code_point_set::digits();
        return true;
      case 'D':
        out = code_point_set::digits().complement();
        return true;
      case 'w':
        out = code_point_set::word();
        return true;
      case 'W':
        out = code_point_set::word().complement();
        return true;
      case 's':
        out = code_point_set::space();
        return true;
      case 'S':
        out = code_point_set::space().complement();
        return true;
      case 't':
        cp = 0x09;
        break;
      case 'n':
        cp = 0x0A;
        break;
      case 'v':
        cp = 0x0B;
        break;
      case 'f':
        cp = 0x0C;
        break;
      case 'r':
        cp = 0x0D;
        break;
      case 'b':
        if (!in_class)
          return false;  // a word boundary: Boost's
        cp = 0x08;
        break;
      case '0':
        if (i < s.size() && digit(s[i]))
          return false;  // an octal escape (Annex B): Boost's
        cp = 0;
        break;
      case 'c': {
        if (i >= s.size())
          return false;
        const char l = s[i];
        if (!((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z')))
          return false;
        ++i;
        cp = static_cast<char32_t>(l) % 32;
        break;
      }
      case 'x':
        if (!hex(2, cp))
          return false;
        break;
      case 'u':
        if (i < s.size() && s[i] == '{') {
          ++i;
          std::size_t n = 0;
          cp = 0;
          while (i < s.size() && s[i] != '}') {
            char32_t d = 0;
            if (++n > 8 || !hex(1, d))
              return false;
            cp = cp * 16 + d;
          }
          if (n == 0 || i >= s.size() || cp > code_point_set::max_code_point)
            return false;
          ++i;
          break;
        }
        if (!hex(4, cp))
          return false;
        // A high surrogate followed by an escaped low one is one code point.
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= s.size() && s[i] == '\\' && s[i + 1] == 'u') {
          const std::size_t back = i;
          i += 2;
          char32_t low = 0;
          if (hex(4, low) && low >= 0xDC00 && low <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else {
            i = back;
          }
        }
        break;
      default: {
        const auto u = static_cast<unsigned char>(e);
        // Letters and digits are other escapes (back-references, \p, \k, \B): Boost's. Any
        // other character stands for itself.
        if ((u >= '0' && u <= '9') || (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z'))
          return false;
        --i;
        if (!literal(cp))
          return false;
        break;
      }
    }
    out = code_point_set(cp, cp);
    return true;
  }

  std::uint32_t atom(int depth) {
    const char c = s[i];
    switch (c) {
      case '^':
        ++i;
        return make(node::bol);
      case '$':
        ++i;
        return make(node::eol);
      case '(': {
        ++i;
        if (i < s.size() && s[i] == '?') {
          if (i + 1 < s.size() && s[i + 1] == ':') {
            i += 2;
          } else if (i + 2 < s.size() && s[i + 1] == '<' && s[i + 2] != '=' && s[i + 2] != '!') {
            // A named group: the same language as any group (a \k<name> is refused above).
            const std::size_t close = s.find('>', i);
            if (close == std::string_view::npos) {
              ok = false;
              return 0;
            }
            i = close + 1;
          } else {
            ok = false;  // look-around: Boost's
            return 0;
          }
        }
        const std::uint32_t inner = alternation(depth + 1);
        if (!ok || i >= s.size() || s[i] != ')') {
          ok = false;
          return 0;
        }
        ++i;
        return inner;
      }
      case '[':
        return klass();
      case '\\': {
        ++i;
        code_point_set set;
        if (!escape(set, false)) {
          ok = false;
          return 0;
        }
        return set_node(set);
      }
      case '.':
        ++i;
        return set_node(code_point_set::dot());
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case ')':
        ok = false;  // stray syntax (or a literal brace of Annex B): Boost's
        return 0;
      default: {
        char32_t cp = 0;
        if (!literal(cp)) {
          ok = false;
          return 0;
        }
        return set_node(code_point_set(cp, cp));
      }
    }
  }

  std::uint32_t klass() {
    ++i;  // '['
    bool negate = false;
    if (i < s.size() && s[i] == '^') {
      negate = true;
      ++i;
    }
    code_point_set set;
    // One class atom: a single code point (`one` set) or a class escape.
    auto class_atom = [&](code_point_set& out, bool& one, char32_t& cp) {
      if (s[i] == '\\') {
        ++i;
        if (!escape(out, true))
          return false;
      } else {
        if (!literal(cp))
          return false;
        out = code_point_set(cp, cp);
      }
      one = out.single(cp);
      return true;
    };
    while (ok && i < s.size() && s[i] != ']') {
      code_point_set lo_set;
      bool lo_one = false;
      char32_t lo = 0;
      if (!class_atom(lo_set, lo_one, lo)) {
        ok = false;
        return 0;
      }
      if (i + 1 < s.size() && s[i] == '-' && s[i + 1] != ']') {
        ++i;
        code_point_set hi_set;
        bool hi_one = false;
        char32_t hi = 0;
        if (!class_atom(hi_set, hi_one, hi) || !lo_one || !hi_one || hi < lo) {
          ok = false;  // a range with a class at an end, or reversed: Boost's
          return 0;
        }
        set.add(lo, hi);
      } else {
        set.add(lo_set);
      }
    }
    if (i >= s.size()) {
      ok = false;
      return 0;
    }
    ++i;  // ']'
    return set_node(negate ? set.complement() : set);
  }
};

// The automaton of `pattern` read over code points, or nothing when the pattern is outside what
// the automata express (ecma_pattern.hpp then uses Boost.Regex). A pattern whose DFA would be
// too large is simulated, still in linear time.
inline std::optional<pattern_dfa> compile_code_point_pattern(std::string_view pattern) {
  return code_point_syntax<pattern_dfa>::compile(pattern);
}

}  // namespace assay::reflect
