// assay/lint/glob.hpp — the event-type globs of `event_pairs` and `event_type_exists` (docs/packs.md).
//
//   auto g = assay::lint::glob::build("assay.*.{started,finished}");
//   if (g.status == glob_status::malformed) ...;  // the rule reports "Invalid pattern: <p>"
//   if (g.status == glob_status::too_large) ...;  // the pack does not load (docs/packs.md)
//   g.glob->matches("assay.profile.started");     // true
//
// The syntax and its meaning are the reference's (its glob library, as the reference builds it:
// `*` and `?` cross `/`, `\` escapes, case-sensitive, the whole type). A glob matches BYTES:
//   - `*` any run of bytes (empty and `/` included); `?` one byte (so `x.?` misses `x.é`);
//   - a literal character is its UTF-8 bytes in sequence;
//   - `[...]` one byte of a set, `[!...]` / `[^...]` one byte outside it; a `]` first in the set
//     is itself, a `-` first or last too; `\` inside a set is itself; a non-ASCII character in a
//     set adds each of its UTF-8 bytes, and a range lo-hi spans from lo's last byte to hi's first
//     (what the reference's byte regex makes of them);
//   - `{a,b}` alternatives (not nested); an empty alternative is dropped (`x{,a}` is `xa` only),
//     a group of empty ones matches the empty run; a `}` with no `{` open matches the empty run;
//     a `,` outside a group is itself;
//   - `**` is `*` except where it stands alone between separators: `**/` at the start of the
//     glob or of an alternative (the empty run, or any run ending in `/`), `/**` at the end of
//     the glob or of an alternative (`/` and any run), `/**/` in the middle (`/`, or `/` any
//     run `/`); the glob `**` (or `**/`) alone matches everything.
// Malformed (the reference's Invalid pattern): an unclosed `[` or `{`, a `{` inside a group, a
// reversed range (`[z-a]`, `[a--]`), a trailing `\`.
//
// Compiled once into a Thompson automaton over bytes of at most `max_states` states (a class is
// one state holding a 256-bit set, whatever its length); a larger glob is `too_large`. Matching
// simulates the automaton with each state visited at most once per subject byte, so a match
// costs O(subject length × states) at worst, whatever the glob.
#pragma once

#include "assay/separate.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

enum class glob_status : std::uint8_t { ok, malformed, too_large };

template <class = void>
class basic_glob {
 public:
  // The most automaton states a glob may compile to (docs/packs.md: a bound checked at load).
  static constexpr std::size_t max_states = 1024;

  using byte_set = std::array<std::uint64_t, 4>;

  // The glob as parsed: a sequence of tokens (exposed for tests that hold the automaton to a
  // backtracking matcher over the same tokens).
  struct token {
    enum class kind : std::uint8_t {
      bytes,         // a literal character: `text`, its UTF-8 bytes
      one_of,        // one byte in `set` (`?` is the full set)
      any_run,       // `*`
      prefix_run,    // `**/` at the start: empty, or any run ending in '/'
      suffix_run,    // `/**` at the end: '/' then any run
      middle_run,    // `/**/`: '/', or '/' any run '/'
      alternatives,  // `{…}`: one of `alts` (empty ones already dropped); none: the empty run
      nothing,       // matches the empty run (a `}` with no `{`)
    } type = kind::bytes;
    std::string text{};
    byte_set set{};
    std::vector<std::vector<token>> alts{};
  };

  struct compiled {
    std::optional<basic_glob> glob;
    glob_status status = glob_status::ok;
  };

  // Parses the glob; `tokens` is empty when it is malformed or too large.
  struct parsed {
    std::vector<token> tokens;
    glob_status status = glob_status::ok;
    bool everything = false;  // the glob is `**` alone: matches every subject
  };

  static parsed parse(std::string_view pattern) {
    parser p{pattern};
    p.run();
    parsed out;
    out.status = p.status;
    if (out.status == glob_status::ok) {
      out.everything = p.top.size() == 1 && p.top[0].type == token::kind::prefix_run;
      out.tokens = std::move(p.top);
    }
    return out;
  }

  static compiled build(std::string_view pattern) {
    parsed p = parse(pattern);
    compiled out;
    out.status = p.status;
    if (p.status != glob_status::ok)
      return out;
    basic_glob g;
    const std::uint32_t accept = g.add(node{node::kind::accept, 0, 0});
    std::uint32_t start = 0;
    if (p.everything)
      start = g.any_run(accept);
    else
      start = g.sequence(p.tokens, accept);
    g.start_ = start;
    if (g.nodes_.size() > max_states) {  // the parser's estimate bounds this; checked all the same
      out.status = glob_status::too_large;
      return out;
    }
    g.prepare();
    out.glob = std::move(g);
    return out;
  }

  // The glob compiled, or nothing when it is malformed or too large.
  static std::optional<basic_glob> compile(std::string_view pattern) { return build(pattern).glob; }

  // The states of the automaton (at most max_states).
  std::size_t states() const { return states_; }

  // Whether the whole subject matches. The automaton is simulated with bitsets, one step a
  // subject byte: its byte-consuming states ("positions") that the byte lets through, 64 at a
  // time (a literal's position compared with the byte 8 at a time, a set's looked up), pass to
  // the position after them with one shift when that is where they lead; the others enter the
  // state they lead to, and the states that consume nothing (a choice) are then swept once, in
  // an order where each comes before every state it leads to. A run (`*`) once entered stays
  // entered (its byte takes any byte and leads back to it): what it reaches is added to every
  // later step as one bitset, computed once. A step costs O(positions / 64 + states entered):
  // O(subject × states) at worst, whatever the glob.
  bool matches(std::string_view text) const {
    const std::size_t words = lit_.size() / 64, split_words = (split_edges_.size() + 62) / 64;
    std::vector<std::uint64_t> current(words + 1, 0), next(words + 1, 0), active(split_words + 1, 0);
    std::vector<std::uint64_t> kept(words + 1, 0), started(split_words + 1, 0), pending(split_words + 1, 0);
    bool accepted = false, kept_accepts = false;
    auto bit = [](const std::vector<std::uint64_t>& v, std::uint32_t i) { return ((v[i >> 6] >> (i & 63)) & 1) != 0; };
    auto set = [](std::vector<std::uint64_t>& v, std::uint32_t i) { v[i >> 6] |= 1ULL << (i & 63); };
    // Adds what run r's loop reaches without consuming to `kept` (runs met on the way are
    // started too; one started before is in `kept` already).
    auto start_run = [&](std::uint32_t r) {
      set(started, r);
      set(pending, r);
      for (std::size_t w = r >> 6; w < split_words; ++w)
        while (pending[w] != 0) {
          const auto q = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(pending[w])));
          pending[w] &= pending[w] - 1;
          for (std::uint32_t e = split_edges_[q]; e < split_edges_[q + 1]; ++e) {
            const std::uint32_t t = split_targets_[e], i = t >> 2;
            if ((t & 3) == to_position) {
              set(kept, i);
            } else if ((t & 3) == to_accept) {
              kept_accepts = true;
            } else if (!bit(loop_, i) || !bit(started, i)) {
              if (bit(loop_, i))
                set(started, i);
              set(pending, i);
            }
          }
        }
    };
    auto enter = [&](std::uint32_t target, std::vector<std::uint64_t>& into) {
      const std::uint32_t i = target >> 2;
      switch (target & 3) {
        case to_position:
          set(into, i);
          break;
        case to_split:
          if (!bit(loop_, i))
            set(active, i);
          else if (!bit(started, i))
            start_run(i);
          break;
        default:
          accepted = true;
      }
    };
    auto keep = [&](std::vector<std::uint64_t>& into) {
      for (std::size_t w = 0; w < words; ++w)
        into[w] |= kept[w];
      accepted = accepted || kept_accepts;
    };
    auto sweep = [&](std::vector<std::uint64_t>& into) {
      for (std::size_t w = 0; w < split_words; ++w)
        while (active[w] != 0) {  // a split only leads to splits after it: none is missed
          const auto r = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(active[w])));
          active[w] &= active[w] - 1;
          for (std::uint32_t e = split_edges_[r]; e < split_edges_[r + 1]; ++e)
            enter(split_targets_[e], into);
        }
    };
    enter(start_, current);
    sweep(current);
    keep(current);
    for (const char ch : text) {
      const auto c = static_cast<unsigned char>(ch);
      const std::uint64_t spread = 0x0101010101010101ULL * c;
      accepted = false;
      std::fill(next.begin(), next.end(), 0);
      bool any = false;
      std::uint64_t carry = 0;
      for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t d = current[w];
        std::uint64_t hit = 0;
        if (d != 0) {
          any = true;
          // The positions of this word whose literal byte is c: 8 bytes at a time, a zero byte of
          // (literal ^ c) found exactly (no borrow between bytes), its top bit gathered.
          for (std::size_t k = 0; k < 8; ++k) {
            if (((d >> (8 * k)) & 0xFF) == 0)
              continue;
            std::uint64_t x = 0;
            std::memcpy(&x, lit_.data() + w * 64 + k * 8, 8);
            x ^= spread;
            const std::uint64_t zero =
                ~(((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL;
            hit |= static_cast<std::uint64_t>(gather(zero)) << (8 * k);
          }
          hit = (hit & literal_[w]) | (d & any_[w]);
          for (std::uint64_t m = d & ~literal_[w] & ~any_[w]; m != 0; m &= m - 1) {  // other sets, one by one
            const std::size_t p = w * 64 + static_cast<std::size_t>(std::countr_zero(m));
            if ((sets_[set_of_[p]][c >> 6] >> (c & 63)) & 1)
              hit |= 1ULL << (p & 63);
          }
          hit &= d;
        }
        const std::uint64_t chained = hit & chain_[w];
        next[w] |= (chained << 1) | carry;
        carry = chained >> 63;
        for (std::uint64_t m = hit & ~chain_[w] & ~sticky_[w]; m != 0; m &= m - 1)
          enter(successor_[w * 64 + static_cast<std::size_t>(std::countr_zero(m))], next);
      }
      if (!any)
        return false;
      sweep(next);
      keep(next);
      current.swap(next);
    }
    return accepted;
  }

 private:
  struct node {
    enum class kind : std::uint8_t { accept, byte, set, split } type = kind::accept;
    // byte: a = the byte, b = next; set: a = index into sets_, b = next;
    // split: edges_[a, b) are the states it leads to without consuming.
    std::uint32_t a = 0, b = 0;
  };

  std::vector<node> nodes_;
  std::vector<std::uint32_t> edges_;
  std::vector<byte_set> sets_;
  std::uint32_t start_ = 0;  // while building: a state; after: a target (below)

  // The automaton as matches() runs it. A target is (index << 2) | kind: a position, a split (by
  // its rank in the sweep order) or the accepting state.
  static constexpr std::uint32_t to_position = 0, to_split = 1, to_accept = 2;
  std::vector<std::uint32_t> successor_;    // by position: the target it leads to
  std::vector<std::uint32_t> set_of_;       // by position: its set (sets only)
  std::vector<unsigned char> lit_;          // by position: its byte (literals only), padded to 64
  std::vector<std::uint64_t> literal_;      // bit p: position p is a literal byte (else a set)
  std::vector<std::uint64_t> chain_;        // bit p: position p leads to position p + 1 alone
  std::vector<std::uint32_t> split_edges_;  // by rank r: its targets are split_targets_[edges[r], edges[r+1])
  std::vector<std::uint32_t> split_targets_;
  std::vector<std::uint32_t> loops_;   // while building: the splits of the runs (`*`)
  std::vector<std::uint64_t> loop_;    // bit r: split r is a run's loop
  std::vector<std::uint64_t> any_;     // bit p: position p takes any byte
  std::vector<std::uint64_t> sticky_;  // bit p: position p is a run's byte (leads back to its loop)

  // The top bits of the eight bytes of `z` (each 0x80 or 0), as eight bits, byte i to bit i.
  static unsigned gather(std::uint64_t z) { return static_cast<unsigned>(((z >> 7) * 0x0102040810204080ULL) >> 56); }

  static bool consumes(const node& d) { return d.type == node::kind::byte || d.type == node::kind::set; }

  // Numbers the positions in reading order and the splits in an order where every split comes
  // before the splits it leads to (the states that consume nothing form no cycle), then keeps
  // only what matches() needs.
  void prepare() {
    const std::size_t n = nodes_.size();
    std::vector<std::uint32_t> index(n, 0);
    std::uint32_t positions = 0;
    for (std::size_t s = n; s-- > 0;)  // built from the end: the last state is read first
      if (consumes(nodes_[s]))
        index[s] = positions++;
    // Splits: reverse post-order of a depth-first walk over split-to-split edges.
    std::vector<std::uint32_t> post;
    std::vector<std::uint8_t> state(n, 0);  // 0 unseen, 1 on the walk, 2 done
    std::vector<std::pair<std::uint32_t, std::uint32_t>> walk;
    for (std::uint32_t root = 0; root < n; ++root) {
      if (nodes_[root].type != node::kind::split || state[root] != 0)
        continue;
      walk.emplace_back(root, nodes_[root].a);
      state[root] = 1;
      while (!walk.empty()) {
        auto& [s, e] = walk.back();
        if (e < nodes_[s].b) {
          const std::uint32_t t = edges_[e++];
          if (nodes_[t].type == node::kind::split && state[t] == 0) {
            state[t] = 1;
            walk.emplace_back(t, nodes_[t].a);
          }
          continue;
        }
        state[s] = 2;
        post.push_back(s);
        walk.pop_back();
      }
    }
    const auto splits = static_cast<std::uint32_t>(post.size());
    for (std::uint32_t k = 0; k < splits; ++k)
      index[post[k]] = splits - 1 - k;
    auto target = [&](std::uint32_t s) {
      const node& d = nodes_[s];
      return d.type == node::kind::accept ? to_accept
                                          : (index[s] << 2) | (d.type == node::kind::split ? to_split : to_position);
    };
    successor_.assign(positions, 0);
    set_of_.assign(positions, 0);
    lit_.assign((positions + 63) / 64 * 64, 0);
    literal_.assign((positions + 63) / 64, 0);
    chain_.assign((positions + 63) / 64, 0);
    any_.assign((positions + 63) / 64, 0);
    std::vector<std::uint32_t> by_rank(splits, 0);
    for (std::uint32_t s = 0; s < n; ++s) {
      const node& d = nodes_[s];
      if (d.type == node::kind::split) {
        by_rank[index[s]] = s;
        continue;
      }
      if (!consumes(d))
        continue;
      const std::uint32_t p = index[s];
      successor_[p] = target(d.b);
      if (d.type == node::kind::byte) {
        lit_[p] = static_cast<unsigned char>(d.a);
        literal_[p >> 6] |= 1ULL << (p & 63);
      } else {
        set_of_[p] = d.a;
        if (sets_[d.a] == all_bytes())
          any_[p >> 6] |= 1ULL << (p & 63);
      }
      if (consumes(nodes_[d.b]) && index[d.b] == p + 1)
        chain_[p >> 6] |= 1ULL << (p & 63);
    }
    loop_.assign((splits + 63) / 64 + 1, 0);
    for (const std::uint32_t l : loops_)
      loop_[index[l] >> 6] |= 1ULL << (index[l] & 63);
    sticky_.assign((positions + 63) / 64, 0);
    for (const std::uint32_t l : loops_) {
      const std::uint32_t take = edges_[nodes_[l].a];  // the run's byte, which leads back to l
      sticky_[index[take] >> 6] |= 1ULL << (index[take] & 63);
    }
    loops_.clear();
    loops_.shrink_to_fit();
    split_edges_.assign(1, 0);
    split_targets_.clear();
    for (std::uint32_t r = 0; r < splits; ++r) {
      const node& d = nodes_[by_rank[r]];
      for (std::uint32_t e = d.a; e < d.b; ++e)
        split_targets_.push_back(target(edges_[e]));
      split_edges_.push_back(static_cast<std::uint32_t>(split_targets_.size()));
    }
    start_ = target(start_);
    states_ = n;
    nodes_.clear();
    nodes_.shrink_to_fit();
    edges_.clear();
    edges_.shrink_to_fit();
  }
  std::size_t states_ = 0;

  static byte_set all_bytes() { return {~0ULL, ~0ULL, ~0ULL, ~0ULL}; }
  static void add_byte(byte_set& s, unsigned char c) { s[c >> 6] |= 1ULL << (c & 63); }

  std::uint32_t add(node d) {
    nodes_.push_back(d);
    return static_cast<std::uint32_t>(nodes_.size() - 1);
  }
  std::uint32_t split(const std::vector<std::uint32_t>& to) {
    const auto a = static_cast<std::uint32_t>(edges_.size());
    edges_.insert(edges_.end(), to.begin(), to.end());
    return add(node{node::kind::split, a, static_cast<std::uint32_t>(edges_.size())});
  }
  std::uint32_t one_byte(unsigned char c, std::uint32_t next) { return add(node{node::kind::byte, c, next}); }
  std::uint32_t one_of(const byte_set& s, std::uint32_t next) {
    std::uint32_t index = static_cast<std::uint32_t>(sets_.size());
    for (std::uint32_t i = 0; i < sets_.size(); ++i)
      if (sets_[i] == s)
        index = i;
    if (index == sets_.size())
      sets_.push_back(s);
    return add(node{node::kind::set, index, next});
  }
  // Any run of bytes, then `next`: a split that either leaves or takes one byte and comes back.
  std::uint32_t any_run(std::uint32_t next) {
    const std::uint32_t loop = split({});
    loops_.push_back(loop);
    const std::uint32_t take = one_of(all_bytes(), loop);
    const auto a = static_cast<std::uint32_t>(edges_.size());
    edges_.push_back(take);
    edges_.push_back(next);
    nodes_[loop].a = a;
    nodes_[loop].b = a + 2;
    return loop;
  }
  // The tokens in order, then `next`: built from the end.
  std::uint32_t sequence(const std::vector<token>& tokens, std::uint32_t next) {
    for (auto t = tokens.rbegin(); t != tokens.rend(); ++t)
      next = one(*t, next);
    return next;
  }
  std::uint32_t one(const token& t, std::uint32_t next) {
    switch (t.type) {
      case token::kind::bytes:
        for (auto c = t.text.rbegin(); c != t.text.rend(); ++c)
          next = one_byte(static_cast<unsigned char>(*c), next);
        return next;
      case token::kind::one_of:
        return one_of(t.set, next);
      case token::kind::any_run:
        return any_run(next);
      case token::kind::prefix_run:  // (any run '/')?
        return split({next, any_run(one_byte('/', next))});
      case token::kind::suffix_run:  // '/' any run
        return one_byte('/', any_run(next));
      case token::kind::middle_run:  // '/' (any run '/')?
        return one_byte('/', split({next, any_run(one_byte('/', next))}));
      case token::kind::alternatives: {
        if (t.alts.empty())
          return next;
        std::vector<std::uint32_t> starts;
        for (const auto& alt : t.alts)
          starts.push_back(sequence(alt, next));
        return split(starts);
      }
      case token::kind::nothing:
        return next;
    }
    return next;
  }

  // States a token adds to the automaton (at most; the parser's running bound).
  static std::size_t cost(const token& t) {
    switch (t.type) {
      case token::kind::bytes:
        return t.text.size();
      case token::kind::one_of:
        return 1;
      case token::kind::any_run:
        return 2;
      case token::kind::prefix_run:
        return 4;
      case token::kind::suffix_run:
        return 3;
      case token::kind::middle_run:
        return 5;
      case token::kind::alternatives:
        return 1;  // the split; the alternatives' tokens were counted as they were read
      case token::kind::nothing:
        return 0;
    }
    return 0;
  }

  // The reference's reading of a glob, character by character (UTF-8; a byte that starts no
  // valid character is read as itself).
  struct parser {
    std::string_view p;
    std::size_t at = 0;          // the next character's offset
    char32_t prev = 0, cur = 0;  // the characters before and at the last one read (0: none)
    bool has_prev = false, has_cur = false;
    std::string cur_bytes{};
    std::vector<token> top{};
    std::vector<std::vector<token>> group{};  // the alternatives of the open `{`, if any
    bool in_group = false;
    std::size_t used = 1;  // states so far (the accepting one included)
    glob_status status = glob_status::ok;

    struct character {
      char32_t c = 0;
      std::size_t len = 0;
    };
    character decode(std::size_t i) const {
      const auto b = static_cast<unsigned char>(p[i]);
      const std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
      if (len <= 1 || i + len > p.size())
        return {b, 1};
      char32_t c = len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
      for (std::size_t k = 1; k < len; ++k) {
        const auto cb = static_cast<unsigned char>(p[i + k]);
        if ((cb & 0xC0) != 0x80)
          return {b, 1};
        c = (c << 6) | (cb & 0x3F);
      }
      return {c, len};
    }
    bool bump() {
      prev = cur;
      has_prev = has_cur;
      if (at >= p.size()) {
        has_cur = false;
        cur = 0;
        cur_bytes.clear();
        return false;
      }
      const character ch = decode(at);
      cur = ch.c;
      cur_bytes.assign(p.substr(at, ch.len));
      at += ch.len;
      has_cur = true;
      return true;
    }
    std::optional<char32_t> peek() const {
      if (at >= p.size())
        return std::nullopt;
      return decode(at).c;
    }
    std::vector<token>& list() { return in_group ? group.back() : top; }
    void push(token t) {
      if (status != glob_status::ok)
        return;
      used += cost(t);
      if (used > max_states) {
        status = glob_status::too_large;
        top.clear();
        group.clear();
        in_group = false;
        return;
      }
      list().push_back(std::move(t));
    }
    void push_kind(typename token::kind k) {
      token t;
      t.type = k;
      push(std::move(t));
    }
    // A too-large glob is still read to its end: a malformed one is malformed, whatever its size.
    void malformed() { status = glob_status::malformed; }

    void run() {
      while (status != glob_status::malformed && bump()) {
        switch (cur) {
          case '?': {
            token t;
            t.type = token::kind::one_of;
            t.set = all_bytes();
            push(std::move(t));
            break;
          }
          case '*':
            star();
            break;
          case '[':
            set();
            break;
          case '{':
            if (depth_open())
              return malformed();
            in_group = status == glob_status::ok;
            group.assign(1, {});
            open_ = true;
            break;
          case '}':
            close_group();
            break;
          case ',':
            if (open_) {
              if (in_group)
                group.emplace_back();
            } else {
              literal(",");
            }
            break;
          case '\\':
            if (!bump())
              return malformed();
            literal(cur_bytes);
            break;
          default:
            literal(cur_bytes);
        }
      }
      if (status != glob_status::malformed && open_)
        malformed();
    }
    bool open_ = false;  // a `{` is open (tracked apart from in_group, which a too-large glob drops)
    bool depth_open() const { return open_; }

    void literal(std::string_view bytes) {
      token t;
      t.type = token::kind::bytes;
      t.text.assign(bytes);
      push(std::move(t));
    }
    void close_group() {
      token t;
      t.type = open_ ? token::kind::alternatives : token::kind::nothing;
      if (open_ && in_group)
        for (auto& alt : group)
          if (!alt.empty())
            t.alts.push_back(std::move(alt));
      open_ = false;
      in_group = false;
      group.clear();
      push(std::move(t));
    }
    bool have_tokens() {
      if (open_)
        return in_group ? !group.back().empty() : true;
      return !top.empty() || status != glob_status::ok;
    }
    void any_run() {
      // `**` read as two `*` is one run; consecutive runs are one state pair.
      if (status == glob_status::ok && !list().empty() && list().back().type == token::kind::any_run)
        return;
      push_kind(token::kind::any_run);
    }
    void star() {
      const bool prev_known = has_prev;
      const char32_t before = prev;
      if (peek() != std::optional<char32_t>('*')) {
        any_run();
        return;
      }
      bump();  // the second '*'
      if (!have_tokens()) {
        const auto after = peek();
        if (after && *after != '/') {
          any_run();
        } else {
          push_kind(token::kind::prefix_run);
          bump();  // the '/' (or the end)
        }
        return;
      }
      if (!(prev_known && before == '/')) {
        if (!open_ || !prev_known || (before != ',' && before != '{')) {
          any_run();
          return;
        }
      }
      bool suffix = false;
      const auto after = peek();
      if (!after) {
        bump();
        suffix = true;
      } else if ((*after == ',' || *after == '}') && open_) {
        suffix = true;
      } else if (*after == '/') {
        bump();
      } else {
        any_run();
        return;
      }
      if (status != glob_status::ok)
        return;
      // Replace the token of the '/' before: the run takes it in.
      token last = std::move(list().back());
      list().pop_back();
      used -= cost(last);
      if (last.type == token::kind::prefix_run || last.type == token::kind::suffix_run)
        push(std::move(last));
      else
        push_kind(suffix ? token::kind::suffix_run : token::kind::middle_run);
    }

    // Adds the character range lo-hi (lo, hi: their UTF-8 bytes) as the reference's byte regex
    // reads it: lo's bytes but the last, the byte range from lo's last to hi's first, hi's
    // bytes but the first.
    static void add_range(byte_set& s, const std::string& lo, const std::string& hi, bool single) {
      if (single) {
        for (const char c : lo)
          add_byte(s, static_cast<unsigned char>(c));
        return;
      }
      for (std::size_t i = 0; i + 1 < lo.size(); ++i)
        add_byte(s, static_cast<unsigned char>(lo[i]));
      const auto from = static_cast<unsigned char>(lo.back());
      const auto to = static_cast<unsigned char>(hi.front());
      for (unsigned v = from; v <= to; ++v)
        add_byte(s, static_cast<unsigned char>(v));
      for (std::size_t i = 1; i < hi.size(); ++i)
        add_byte(s, static_cast<unsigned char>(hi[i]));
    }
    void set() {
      token t;
      t.type = token::kind::one_of;
      bool negated = false;
      if (const auto c = peek(); c && (*c == '!' || *c == '^')) {
        bump();
        negated = true;
      }
      // The last range, still open to a `-x` that moves its end.
      bool pending = false, single = true, in_range = false, first = true;
      char32_t lo = 0, hi = 0;
      std::string lo_bytes, hi_bytes;
      auto flush = [&] {
        if (pending)
          add_range(t.set, lo_bytes, hi_bytes, single || lo == hi);
        pending = false;
      };
      auto start = [&](char32_t c, const std::string& bytes) {
        flush();
        pending = true;
        single = true;
        lo = hi = c;
        lo_bytes = hi_bytes = bytes;
      };
      auto extend = [&](char32_t c, const std::string& bytes) {
        hi = c;
        hi_bytes = bytes;
        single = false;
        return hi >= lo;
      };
      for (;;) {
        if (!bump())
          return malformed();
        const char32_t c = cur;
        if (c == ']') {
          if (!first)
            break;
          start(c, cur_bytes);
        } else if (c == '-') {
          if (first) {
            start(c, cur_bytes);
          } else if (in_range) {
            if (!extend(c, cur_bytes))
              return malformed();
            in_range = false;
          } else {
            in_range = true;
          }
        } else {
          if (in_range) {
            if (!extend(c, cur_bytes))
              return malformed();
          } else {
            start(c, cur_bytes);
          }
          in_range = false;
        }
        first = false;
      }
      flush();
      if (in_range)
        add_byte(t.set, '-');
      if (negated)
        for (auto& w : t.set)
          w = ~w;
      push(std::move(t));
    }
  };
};
using glob = basic_glob<>;

}  // namespace assay::lint

#ifdef ASSAY_EXTERN_TEMPLATE  // separate compilation: assay/separate.hpp
namespace assay::lint {
ASSAY_EXTERN_TEMPLATE class basic_glob<void>;
}  // namespace assay::lint
#endif
