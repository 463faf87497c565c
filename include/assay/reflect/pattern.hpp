// assay/reflect/pattern.hpp — ECMA-262 patterns as deterministic automata, for the subset that
// contract schemas use: literals, escaped punctuation, \d and \w, classes with ranges and
// negation, groups (capturing or not) with alternation, the quantifiers * + ? {n} {n,} {n,m}
// (lazy forms too), and the assertions ^ and $ (no multiline: start and end of input only).
//
// A pattern of that subset is compiled once into a DFA over byte classes; matching is then one
// table lookup per byte, in time linear in the input whatever the pattern (no backtracking, so
// no input is ever "too costly"). Two cheaper ways are taken where they apply, because each DFA
// step waits for the previous one's load: a pattern anchored at both ends whose language is a
// small set of fixed-length shapes (a digest, a timestamp) is matched position by position, with
// no step depending on another; and a state that loops on some bytes (the [^:]+ of an id)
// scans ahead for the first byte that leaves it, again without a chain.
//
// Like the Boost.Regex path it replaces, matching is over bytes (a class such as [^:] takes one
// byte of a multi-byte character) and is a search (an unanchored pattern matches anywhere).
// Anything outside the subset (`.`, \s, \b, look-around, back-references, ...) or a pattern
// whose automaton would be large is not compiled here: compile() then says so, and regex.hpp
// keeps using Boost.Regex for it.
//
// The parser and the NFA are constexpr: in_subset() tells at compile time whether a pattern is
// one of ours, so a contract whose patterns all are never includes Boost.Regex (checks.hpp). For
// such a pattern compile(p, large::simulate) always answers: should its DFA grow past the limit,
// the NFA is run instead, a set of states per byte (still linear, never backtracking).
#pragma once

#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace assay::reflect {

// The code-point syntax of pattern_unicode.hpp: its own parser onto this automaton's tree.
template <class Dfa>
struct code_point_syntax;

// A template only so that nothing of it is compiled in a translation unit that matches no
// pattern: use pattern_dfa.
template <class = void>
class basic_pattern_dfa {
  friend struct code_point_syntax<basic_pattern_dfa>;

 public:
  static constexpr std::size_t max_program = 4096;  // NFA instructions after expanding {n,m}
  static constexpr std::size_t max_states = 2048;   // DFA states

  // True when `pattern` is in the subset and its NFA within max_program (usable at compile time).
  static constexpr bool in_subset(std::string_view pattern) {
    tree t;
    program prog;
    return t.parse(pattern) && prog.emit_all(t);
  }

  // What compile() does with a pattern of the subset whose DFA would exceed max_states.
  enum class large { refuse, simulate };

  // The automaton of `pattern`, or nothing when the pattern is outside the subset or too large
  // (with large::simulate, nothing only when it is outside the subset: see in_subset()).
  static std::optional<basic_pattern_dfa> compile(std::string_view pattern, large if_large = large::refuse) {
    tree t;
    program prog;
    if (!t.parse(pattern) || !prog.emit_all(t))
      return std::nullopt;
    basic_pattern_dfa d;
    if (!d.build(prog)) {
      if (if_large == large::refuse)
        return std::nullopt;
      basic_pattern_dfa sim;
      sim.nfa_ = std::move(prog.code);
      return sim;
    }
    d.build_shapes(t);
    return d;
  }

  // True when `s` contains a match (search semantics).
  bool search(std::string_view s) const {
    const auto* p = reinterpret_cast<const unsigned char*>(s.data());
    if (!nfa_.empty())
      return simulate(p, s.size());
    if (!shapes_.empty())
      return match_shapes(p, s.size());
    // Each entry of next_ is the target state's row (state × classes) shifted left by two, bit 0
    // set when the target accepts and bit 1 when it loops on some byte: a step is one lookup and
    // one test. In a looping state the row stays put, so the bytes that keep it there are
    // checked with independent lookups until one leaves.
    if (start_accepts_)
      return true;
    std::uint32_t row = start_row_;
    const std::uint32_t* next = next_.data();
    const auto* end = p + s.size();
    for (; p != end; ++p) {
      const std::uint32_t e = next[row + byte_class_[*p]];
      if (e & 1u)
        return true;
      row = e >> 2;
      if (e & 2u) {
        while (p + 1 != end && next[row + byte_class_[p[1]]] == e)
          ++p;
      }
    }
    return accept_at_end_[row / classes_] != 0;
  }

  std::size_t states() const noexcept { return accept_now_.size(); }

  // The number of fixed-length shapes matched position by position; 0 when the DFA is used.
  std::size_t shapes() const noexcept { return shapes_.size(); }

 private:
  // --- syntax tree ----------------------------------------------------------------------------

  using byteset = std::array<std::uint64_t, 4>;

  static constexpr void add(byteset& b, unsigned c) noexcept { b[c >> 6] |= std::uint64_t{1} << (c & 63); }
  static constexpr void add_range(byteset& b, unsigned lo, unsigned hi) noexcept {
    for (unsigned c = lo; c <= hi; ++c)
      add(b, c);
  }
  static constexpr bool has(const byteset& b, unsigned c) noexcept { return (b[c >> 6] >> (c & 63)) & 1; }

  static constexpr std::size_t unbounded = static_cast<std::size_t>(-1);

  // Nodes live in one vector and name their children by index (constexpr: no owning pointers).
  struct node {
    enum kind_t { set, cat, alt, repeat, bol, eol, empty } kind;
    byteset bytes{};                  // set
    std::vector<std::uint32_t> kids;  // cat, alt; repeat: one
    std::size_t min = 0, max = 0;     // repeat; max == unbounded for none
  };

  struct tree {
    std::vector<node> nodes;
    std::uint32_t root = 0;

    constexpr const node& operator[](std::uint32_t i) const { return nodes[i]; }
    constexpr bool parse(std::string_view pattern);
  };

  static constexpr std::uint32_t none = static_cast<std::uint32_t>(-1);

  struct parser {
    std::string_view s;
    std::vector<node>& nodes;
    std::size_t i = 0;
    bool ok = true;

    constexpr std::uint32_t make(typename node::kind_t k) {
      nodes.push_back(node{k, {}, {}, 0, 0});
      return static_cast<std::uint32_t>(nodes.size() - 1);
    }

    constexpr std::uint32_t alternation(int depth) {
      if (depth > 32) {
        ok = false;
        return none;
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

    // ^ only as the first atom and $ only as the last of a top-level branch: then ^ holds only
    // in the start state and $ only at the end, which the automaton encodes. Elsewhere (inside
    // groups, in the middle) they are left to Boost.
    constexpr std::uint32_t concat(int depth) {
      const std::uint32_t c = make(node::cat);
      bool ended = false;  // a $ was read: nothing may follow it in this branch
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

    static constexpr bool digit(char c) noexcept { return c >= '0' && c <= '9'; }

    constexpr bool number(std::size_t& out) {
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

    constexpr void quantified(std::uint32_t& a) {
      while (ok && i < s.size()) {
        std::size_t lo = 0, hi = 0;
        const char c = s[i];
        if (c == '*') {
          lo = 0, hi = unbounded;
          ++i;
        } else if (c == '+') {
          lo = 1, hi = unbounded;
          ++i;
        } else if (c == '?') {
          lo = 0, hi = 1;
          ++i;
        } else if (c == '{') {
          ++i;
          if (!number(lo)) {
            ok = false;  // a literal '{' (Annex B): left to Boost
            return;
          }
          hi = lo;
          if (i < s.size() && s[i] == ',') {
            ++i;
            hi = unbounded;
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
          ok = false;  // a quantifier on a quantifier: an ECMA-262 syntax error, possessive to Boost
          return;
        }
        if (nodes[a].kind == node::bol || nodes[a].kind == node::eol) {
          ok = false;  // a quantified assertion: left to Boost
          return;
        }
        const std::uint32_t r = make(node::repeat);
        nodes[r].min = lo;
        nodes[r].max = hi;
        nodes[r].kids.push_back(a);
        a = r;
      }
    }

    // The class of an escape (\d, \w) or the literal byte it stands for; false if unsupported.
    constexpr bool escape(byteset& out) {
      if (i >= s.size())
        return false;
      const char e = s[i++];
      switch (e) {
        case 'd':
          add_range(out, '0', '9');
          return true;
        case 'w':
          add_range(out, '0', '9');
          add_range(out, 'A', 'Z');
          add_range(out, 'a', 'z');
          add(out, '_');
          return true;
        default:
          break;
      }
      // Escaped punctuation stands for itself; letters and digits are special forms we leave
      // to Boost (\s, \b, \1, \u..., \x..., \n, ...).
      const auto u = static_cast<unsigned char>(e);
      if ((u >= '0' && u <= '9') || (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || u >= 0x80)
        return false;
      add(out, u);
      return true;
    }

    constexpr std::uint32_t atom(int depth) {
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
            } else {
              ok = false;  // look-around and named groups: left to Boost
              return none;
            }
          }
          const std::uint32_t inner = alternation(depth + 1);
          if (!ok || i >= s.size() || s[i] != ')') {
            ok = false;
            return none;
          }
          ++i;
          return inner;
        }
        case '[':
          return klass();
        case '\\': {
          ++i;
          const std::uint32_t n = make(node::set);
          byteset b{};
          if (!escape(b))
            ok = false;
          nodes[n].bytes = b;
          return n;
        }
        case '.':
        case '*':
        case '+':
        case '?':
        case '{':
        case '}':
        case ']':
        case ')':
          ok = false;  // '.' (newline rules) and stray syntax: left to Boost
          return none;
        default: {
          ++i;
          const std::uint32_t n = make(node::set);
          add(nodes[n].bytes, static_cast<unsigned char>(c));
          return n;
        }
      }
    }

    constexpr std::uint32_t klass() {
      ++i;  // '['
      const std::uint32_t n = make(node::set);
      byteset bytes{};
      bool negate = false;
      if (i < s.size() && s[i] == '^') {
        negate = true;
        ++i;
      }
      bool first = true;
      while (ok && i < s.size() && (s[i] != ']' || first)) {
        if (first && s[i] == ']') {
          ok = false;  // "[]" and "[^]": left to Boost
          return n;
        }
        first = false;
        // One class atom: a byte, or an escape standing for a byte or a class.
        auto atom_of = [&](int& byte, byteset& cls) constexpr {
          if (s[i] == '\\') {
            ++i;
            byteset b{};
            if (!escape(b))
              return false;
            int count = 0, only = -1;
            for (unsigned c = 0; c < 256; ++c)
              if (has(b, c))
                ++count, only = static_cast<int>(c);
            if (count == 1) {
              byte = only;
            } else {
              cls = b;
              byte = -1;
            }
            return true;
          }
          byte = static_cast<unsigned char>(s[i++]);
          return true;
        };
        int lo = -1;
        byteset lo_cls{};
        if (!atom_of(lo, lo_cls)) {
          ok = false;
          return n;
        }
        if (i + 1 < s.size() && s[i] == '-' && s[i + 1] != ']') {
          ++i;
          int hi = -1;
          byteset hi_cls{};
          if (!atom_of(hi, hi_cls) || lo < 0 || hi < 0 || hi < lo) {
            ok = false;  // a range with a class end, or reversed: left to Boost
            return n;
          }
          add_range(bytes, static_cast<unsigned>(lo), static_cast<unsigned>(hi));
        } else if (lo >= 0) {
          add(bytes, static_cast<unsigned>(lo));
        } else {
          for (std::size_t w = 0; w < 4; ++w)
            bytes[w] |= lo_cls[w];
        }
      }
      if (i >= s.size()) {
        ok = false;
        return n;
      }
      ++i;  // ']'
      if (negate)
        for (auto& w : bytes)
          w = ~w;
      nodes[n].bytes = bytes;
      return n;
    }
  };

  // --- NFA ------------------------------------------------------------------------------------

  struct inst {
    enum op_t { set, split, jmp, bol, eol, match } op;
    byteset bytes{};
    std::uint32_t x = 0, y = 0;
  };

  struct program {
    std::vector<inst> code;
    bool full = false;
    std::size_t limit = max_program;  // the code-point syntax allows more

    constexpr std::uint32_t push(inst in) {
      if (code.size() >= limit) {
        full = true;
        return 0;
      }
      code.push_back(in);
      return static_cast<std::uint32_t>(code.size() - 1);
    }
    constexpr std::uint32_t here() const noexcept { return static_cast<std::uint32_t>(code.size()); }

    constexpr void emit(const tree& t, std::uint32_t at) {
      if (full)
        return;
      const node& n = t[at];
      switch (n.kind) {
        case node::set:
          push(inst{inst::set, n.bytes, here() + 1, 0});
          break;
        case node::bol:
          push(inst{inst::bol, {}, here() + 1, 0});
          break;
        case node::eol:
          push(inst{inst::eol, {}, here() + 1, 0});
          break;
        case node::empty:
          break;
        case node::cat:
          for (const std::uint32_t k : n.kids)
            emit(t, k);
          break;
        case node::alt: {
          // split L1, next; L1: kid0; jmp end; next: split L2, ...
          std::vector<std::uint32_t> jumps;
          for (std::size_t k = 0; k < n.kids.size(); ++k) {
            if (k + 1 < n.kids.size()) {
              const std::uint32_t sp = push(inst{inst::split, {}, 0, 0});
              if (full)
                return;
              code[sp].x = here();
              emit(t, n.kids[k]);
              jumps.push_back(push(inst{inst::jmp, {}, 0, 0}));
              if (full)
                return;
              code[sp].y = here();
            } else {
              emit(t, n.kids[k]);
            }
          }
          for (std::uint32_t j : jumps)
            code[j].x = here();
          break;
        }
        case node::repeat: {
          const std::uint32_t k = n.kids[0];
          for (std::size_t r = 0; r < n.min && !full; ++r)
            emit(t, k);
          if (n.max == unbounded) {
            // L: split body, out; body; jmp L
            const std::uint32_t sp = push(inst{inst::split, {}, 0, 0});
            if (full)
              return;
            code[sp].x = here();
            emit(t, k);
            push(inst{inst::jmp, {}, sp, 0});
            if (full)
              return;
            code[sp].y = here();
          } else {
            std::vector<std::uint32_t> splits;
            for (std::size_t r = n.min; r < n.max && !full; ++r) {
              const std::uint32_t sp = push(inst{inst::split, {}, 0, 0});
              if (full)
                return;
              code[sp].x = here();
              splits.push_back(sp);
              emit(t, k);
            }
            for (std::uint32_t sp : splits)
              if (!full)
                code[sp].y = here();
          }
          break;
        }
      }
    }

    constexpr bool emit_all(const tree& t) {
      emit(t, t.root);
      push(inst{inst::match, {}, 0, 0});
      return !full;
    }
  };

  // --- DFA ------------------------------------------------------------------------------------

  // The states reachable from `seeds` without consuming a byte: the consuming ones (set), the
  // pending end assertions (eol) and match. `at_start`: ^ holds here; `at_end`: $ holds.
  static std::vector<std::uint32_t> closure(const std::vector<inst>& code, const std::vector<std::uint32_t>& seeds,
                                            bool at_start, bool at_end) {
    std::vector<std::uint32_t> out, stack(seeds.rbegin(), seeds.rend());
    std::vector<bool> seen(code.size(), false);
    while (!stack.empty()) {
      const std::uint32_t pc = stack.back();
      stack.pop_back();
      if (seen[pc])
        continue;
      seen[pc] = true;
      const inst& in = code[pc];
      switch (in.op) {
        case inst::set:
        case inst::match:
          out.push_back(pc);
          break;
        case inst::eol:
          if (at_end)
            stack.push_back(in.x);
          else
            out.push_back(pc);
          break;
        case inst::bol:
          if (at_start)
            stack.push_back(in.x);
          break;
        case inst::jmp:
          stack.push_back(in.x);
          break;
        case inst::split:
          stack.push_back(in.y);
          stack.push_back(in.x);
          break;
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  bool build(const program& prog, std::size_t state_limit = max_states) {
    // Byte classes: bytes that every set treats alike share a column.
    std::vector<byteset> sets;
    for (const auto& in : prog.code)
      if (in.op == inst::set)
        sets.push_back(in.bytes);
    std::map<std::vector<bool>, std::uint8_t> signature_class;
    for (unsigned c = 0; c < 256; ++c) {
      std::vector<bool> sig;
      sig.reserve(sets.size());
      for (const auto& b : sets)
        sig.push_back(has(b, c));
      auto [it, inserted] = signature_class.try_emplace(sig, static_cast<std::uint8_t>(signature_class.size()));
      byte_class_[c] = it->second;
      if (inserted)
        representative_.push_back(static_cast<unsigned char>(c));
    }
    classes_ = representative_.size();

    std::map<std::vector<std::uint32_t>, std::uint32_t> index;
    std::vector<std::vector<std::uint32_t>> states;
    auto intern = [&](std::vector<std::uint32_t> st) -> std::optional<std::uint32_t> {
      auto it = index.find(st);
      if (it != index.end())
        return it->second;
      if (states.size() >= state_limit)
        return std::nullopt;
      const auto id = static_cast<std::uint32_t>(states.size());
      index.emplace(st, id);
      states.push_back(std::move(st));
      return id;
    };
    // Search semantics: the start state is re-entered at every position (but ^ holds only at 0).
    const std::vector<std::uint32_t> restart = closure(prog.code, {0}, false, false);
    auto first = intern(closure(prog.code, {0}, true, false));
    if (!first)
      return false;
    start_ = *first;
    for (std::size_t k = 0; k < states.size(); ++k) {
      const std::vector<std::uint32_t> cur = states[k];  // copy: `states` grows below
      for (std::size_t cls = 0; cls < classes_; ++cls) {
        const unsigned char c = representative_[cls];
        std::vector<std::uint32_t> seeds;
        for (std::uint32_t pc : cur)
          if (prog.code[pc].op == inst::set && has(prog.code[pc].bytes, c))
            seeds.push_back(prog.code[pc].x);
        auto moved = closure(prog.code, seeds, false, false);
        std::vector<std::uint32_t> merged;
        std::set_union(moved.begin(), moved.end(), restart.begin(), restart.end(), std::back_inserter(merged));
        auto id = intern(std::move(merged));
        if (!id)
          return false;
        next_.push_back(*id);
      }
    }
    const auto match_pc = static_cast<std::uint32_t>(prog.code.size() - 1);
    for (const auto& st : states) {
      accept_now_.push_back(std::binary_search(st.begin(), st.end(), match_pc) ? 1 : 0);
      std::vector<std::uint32_t> pending;
      for (std::uint32_t pc : st)
        if (prog.code[pc].op == inst::eol || prog.code[pc].op == inst::match)
          pending.push_back(pc);
      const auto at_end = closure(prog.code, pending, false, true);
      accept_at_end_.push_back(std::binary_search(at_end.begin(), at_end.end(), match_pc) ? 1 : 0);
    }
    if (states.size() * classes_ >= (std::uint32_t{1} << 30))
      return false;
    std::vector<std::uint8_t> loops(states.size(), 0);
    for (std::size_t k = 0; k < states.size(); ++k)
      for (std::size_t cls = 0; cls < classes_; ++cls)
        if (next_[k * classes_ + cls] == k)
          loops[k] = 1;
    for (auto& e : next_)
      e = (e * static_cast<std::uint32_t>(classes_)) << 2 | std::uint32_t{loops[e]} << 1 | accept_now_[e];
    start_row_ = start_ * static_cast<std::uint32_t>(classes_);
    start_accepts_ = accept_now_[start_] != 0;
    return true;
  }

  // --- fixed-length shapes -----------------------------------------------------------------------

  static constexpr std::size_t max_shapes = 16;         // alternatives of the whole pattern
  static constexpr std::size_t max_shape_length = 256;  // bytes in one alternative
  static constexpr std::size_t max_shape_sets = 64;     // distinct byte sets, a bit each

  using shape = std::vector<byteset>;

  // The language of `n` as a list of shapes (a byte set per position), or false when it is not
  // finite or not small.
  static bool shapes_of(const tree& t, std::uint32_t at, std::vector<shape>& out) {
    const node& n = t[at];
    switch (n.kind) {
      case node::set:
        out = {shape{n.bytes}};
        return true;
      case node::empty:
        out = {shape{}};
        return true;
      case node::bol:
      case node::eol:
        return false;
      case node::cat: {
        out = {shape{}};
        for (const std::uint32_t k : n.kids) {
          std::vector<shape> tail;
          if (!shapes_of(t, k, tail) || !product(out, tail))
            return false;
        }
        return true;
      }
      case node::alt: {
        out.clear();
        for (const std::uint32_t k : n.kids) {
          std::vector<shape> one;
          if (!shapes_of(t, k, one) || out.size() + one.size() > max_shapes)
            return false;
          out.insert(out.end(), one.begin(), one.end());
        }
        return true;
      }
      case node::repeat: {
        if (n.max == unbounded || n.max > max_shape_length)
          return false;
        std::vector<shape> body, run = {shape{}};
        if (!shapes_of(t, n.kids[0], body))
          return false;
        out.clear();
        for (std::size_t r = 0; r <= n.max; ++r) {
          if (r >= n.min) {
            if (out.size() + run.size() > max_shapes)
              return false;
            out.insert(out.end(), run.begin(), run.end());
          }
          if (r < n.max && !product(run, body))
            return false;
        }
        return true;
      }
    }
    return false;
  }

  // Every shape of `a` followed by every shape of `b`, into `a`.
  static bool product(std::vector<shape>& a, const std::vector<shape>& b) {
    if (a.size() * b.size() > max_shapes)
      return false;
    std::vector<shape> out;
    for (const auto& x : a)
      for (const auto& y : b) {
        if (x.size() + y.size() > max_shape_length)
          return false;
        shape s = x;
        s.insert(s.end(), y.begin(), y.end());
        out.push_back(std::move(s));
      }
    a = std::move(out);
    return true;
  }

  // Shapes are used when every top-level branch is ^...$ with a finite, small language between.
  void build_shapes(const tree& t) {
    std::vector<std::uint32_t> branches;
    if (t[t.root].kind == node::alt) {
      branches = t[t.root].kids;
    } else {
      branches.push_back(t.root);
    }
    std::vector<shape> all;
    for (const std::uint32_t at : branches) {
      const node& b = t[at];
      if (b.kind != node::cat || b.kids.size() < 2 || t[b.kids.front()].kind != node::bol ||
          t[b.kids.back()].kind != node::eol)
        return;
      std::vector<shape> one = {shape{}};
      for (std::size_t k = 1; k + 1 < b.kids.size(); ++k) {
        std::vector<shape> tail;
        if (!shapes_of(t, b.kids[k], tail) || !product(one, tail))
          return;
      }
      if (all.size() + one.size() > max_shapes)
        return;
      all.insert(all.end(), one.begin(), one.end());
    }
    // Each distinct byte set gets a bit; mask_[c] holds the bits of the sets containing c.
    std::vector<byteset> sets;
    std::vector<std::vector<std::uint64_t>> bits;
    for (const auto& sh : all) {
      std::vector<std::uint64_t> row;
      for (const auto& b : sh) {
        auto it = std::find(sets.begin(), sets.end(), b);
        if (it == sets.end()) {
          if (sets.size() == max_shape_sets)
            return;
          sets.push_back(b);
          it = sets.end() - 1;
        }
        row.push_back(std::uint64_t{1} << (it - sets.begin()));
      }
      bits.push_back(std::move(row));
    }
    for (unsigned c = 0; c < 256; ++c)
      for (std::size_t k = 0; k < sets.size(); ++k)
        if (has(sets[k], c))
          mask_[c] |= std::uint64_t{1} << k;
    shapes_ = std::move(bits);
  }

  bool match_shapes(const unsigned char* p, std::size_t n) const noexcept {
    for (const auto& sh : shapes_) {
      if (sh.size() != n)
        continue;
      std::uint64_t missing = 0;  // positions whose byte is outside their set
      for (std::size_t i = 0; i < n; ++i)
        missing |= sh[i] & ~mask_[p[i]];
      if (missing == 0)
        return true;
    }
    return false;
  }

  // --- simulation ------------------------------------------------------------------------------

  // The NFA run directly, for a pattern whose DFA would be too large: the set of its states after
  // each byte (the DFA's construction, done per input instead of once).
  bool simulate(const unsigned char* p, std::size_t n) const {
    const auto match_pc = static_cast<std::uint32_t>(nfa_.size() - 1);
    auto accepts = [&](const std::vector<std::uint32_t>& st) {
      return std::binary_search(st.begin(), st.end(), match_pc);
    };
    const std::vector<std::uint32_t> restart = closure(nfa_, {0}, false, false);
    std::vector<std::uint32_t> cur = closure(nfa_, {0}, true, false), seeds, merged;
    for (std::size_t i = 0; i < n; ++i) {
      if (accepts(cur))
        return true;
      seeds.clear();
      for (std::uint32_t pc : cur)
        if (nfa_[pc].op == inst::set && has(nfa_[pc].bytes, p[i]))
          seeds.push_back(nfa_[pc].x);
      const auto moved = closure(nfa_, seeds, false, false);
      merged.clear();
      std::set_union(moved.begin(), moved.end(), restart.begin(), restart.end(), std::back_inserter(merged));
      cur.swap(merged);
    }
    std::vector<std::uint32_t> pending;
    for (std::uint32_t pc : cur)
      if (nfa_[pc].op == inst::eol || nfa_[pc].op == inst::match)
        pending.push_back(pc);
    return accepts(closure(nfa_, pending, false, true));
  }

  std::vector<inst> nfa_;  // set only when simulating

  std::array<std::uint64_t, 256> mask_{};
  std::vector<std::vector<std::uint64_t>> shapes_;  // per shape, per position: its set's bit

  std::array<std::uint8_t, 256> byte_class_{};
  std::vector<unsigned char> representative_;
  std::size_t classes_ = 0;
  std::uint32_t start_ = 0, start_row_ = 0;
  bool start_accepts_ = false;
  std::vector<std::uint32_t> next_;  // states × classes: target row << 2 | loops << 1 | accepts
  std::vector<std::uint8_t> accept_now_, accept_at_end_;
};

template <class V>
constexpr bool basic_pattern_dfa<V>::tree::parse(std::string_view pattern) {
  parser p{pattern, nodes};
  root = p.alternation(0);
  return p.ok && p.i == pattern.size() && root != none;
}

using pattern_dfa = basic_pattern_dfa<>;

}  // namespace assay::reflect

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::reflect {
ASSAY_EXTERN_TEMPLATE class basic_pattern_dfa<void>;
}  // namespace assay::reflect
#endif
