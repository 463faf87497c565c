// assay/json/document.hpp — a read-only parsed document on a flat tape.
//
// `json::document` is what the library uses when it only needs to look at JSON, not to edit it:
// canonicalizing a file, hashing events, linting. One strict pass (docs/json.md, duplicates included)
// fills a vector of fixed-size nodes; strings without escapes stay views into the input (which
// must outlive the document), escaped ones are decoded into one side buffer. No allocation per
// value, so reading and canonicalizing run at memory speed compared with the general-purpose
// DOM of value.hpp.
//
// Two parsers fill the tape, both on the lexing layer of lex.hpp. The fast one scans the bytes
// directly, keeps number text that is already in canonical form, and notes which objects are
// already in canonical member order; it only answers "valid or not". When it says "not", the
// cursor-driven parser (reader.hpp) reads the input again to produce the exact error with its
// code, position and pointer. Both accept exactly the same inputs; the tests and the fuzz target
// hold them to that. Neither recurses: nesting lives on heap-allocated stacks, so any depth the
// limits allow is safe.
#pragma once

#include "assay/error.hpp"
#include "assay/json/big_array.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/lex.hpp"
#include "assay/json/name_set.hpp"
#include "assay/json/number.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::json {

class document {
 public:
  struct node {
    json::kind kind;
    // string: the content lives in the side buffer (it had escapes);
    // number: `payload`/`count` are the offset/length of input text that is already the number's
    //         canonical form (the value is read from it on demand);
    // object: the members are already in canonical (UTF-16) order.
    bool flag;
    std::uint32_t count;    // string: byte length; array/object: number of elements/members;
                            // number as text: its length; as bits: 1 if written with a fraction
                            // or an exponent, else 0
    std::uint64_t payload;  // string: offset; number: bit pattern (or text offset); bool: 0/1;
                            // array/object: index one past the container's last node
  };

  // Parses `text` strictly. The document keeps views into `text`.
  static result<document> parse(std::string_view text, const limits& lim = {}) { return parse(text, lim, document{}); }
  // The same, into the buffers of `recycled` (a document no longer needed): a caller that reads
  // document after document keeps its tape and side buffer, instead of having fresh memory
  // allocated and faulted in for each (that cost was a tenth of the time of a 26 MB parse).
  static result<document> parse(std::string_view text, const limits& lim, document&& recycled) {
    document d = std::move(recycled);
    d.input_ = text;
    d.nodes_.clear();
    d.side_.clear();
    d.nodes_.reserve(text.size() / 8 + 16);
    fast_parser fp(d, lim);
    if (fp.run())
      return d;
    return parse_with_cursor(text, lim);
  }

  // Whether the fast parser alone accepts `text`: parse() turns to the cursor only to report
  // what is wrong, so the two must accept the same inputs (public for the tests that say so).
  static bool fast_parser_accepts(std::string_view text, const limits& lim = {}) {
    document d;
    d.input_ = text;
    d.nodes_.reserve(text.size() / 8 + 16);
    fast_parser fp(d, lim);
    return fp.run();
  }

  // The same result through the cursor of reader.hpp: slower, and the source of parse()'s error
  // reports. Public so that tests can hold the two parsers to the same answers.
  static result<document> parse_with_cursor(std::string_view text, const limits& lim = {}) {
    document d;
    d.input_ = text;
    cursor c(text, lim);
    d.nodes_.reserve(text.size() / 8 + 16);
    builder b{d, c};
    if (!b.run() || !c.finish())
      return c.error();
    return d;
  }

  std::span<const node> nodes() const noexcept { return {nodes_.data(), nodes_.size()}; }
  const node& root() const noexcept { return nodes_[0]; }

  std::string_view string_at(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    const char* base = n.flag ? side_.data() : input_.data();
    return std::string_view(base + n.payload, n.count);
  }
  double number_at(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    double d = 0;
    if (n.flag) {
      const char* p = input_.data() + n.payload;
      std::from_chars(p, p + n.count, d);  // canonical text: always in range
    } else {
      std::memcpy(&d, &n.payload, sizeof d);
    }
    return d;
  }
  // Whether the number at i was written as an integer: no fraction and no exponent (1, -0, but
  // not 1.0 or 1e0). A reader of integer members that refuses float spellings, as the reference
  // reads assayseq, asks this; the value alone cannot say.
  bool integer_token_at(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    if (n.flag)  // the text as written: digits, and a '.' for a decimal (never an exponent)
      return std::string_view(input_.data() + n.payload, n.count).find('.') == std::string_view::npos;
    return n.count == 0;  // 1 when written with a fraction or an exponent
  }
  // Index of the node after the value at i (its next sibling).
  std::size_t next(std::size_t i) const noexcept {
    const node& n = nodes_[i];
    return (n.kind == kind::array || n.kind == kind::object) ? static_cast<std::size_t>(n.payload) : i + 1;
  }
  // The value of member `name` of the object at node `obj`: its node index, or 0 when the object
  // has no such member (node 0 is always the root, never a member value).
  std::size_t find_member(std::size_t obj, std::string_view name) const noexcept {
    return find_members<1>(obj, {name})[0];
  }
  // find_member() for several names in one pass over the members.
  template <std::size_t N>
  std::array<std::size_t, N> find_members(std::size_t obj,
                                          const std::array<std::string_view, N>& names) const noexcept {
    std::array<std::size_t, N> found{};
    const node& o = nodes_[obj];
    if (o.kind != kind::object)
      return found;
    for (std::size_t j = obj + 1; j < o.payload; j = next(j + 1)) {
      const std::string_view name = string_at(j);
      for (std::size_t k = 0; k < N; ++k) {
        // Sizes first, then the bytes: spelt out, so that no translation unit's copy of this hot
        // loop depends on the compiler inlining string_view::compare.
        if (name.size() == names[k].size() && lex::same_bytes(name.data(), names[k].data(), name.size())) {
          found[k] = j + 1;
          break;
        }
      }
    }
    return found;
  }

  // Writes the RFC 8785 form of the value at node `at` (the whole document by default). Never
  // fails: parsed input is finite and valid UTF-8.
  template <class W>
  void write_canonical(W& w, std::size_t at = 0) const {
    std::vector<entry> scratch;
    std::vector<level> stack;
    write(w, at, scratch, stack);
  }
  // The RFC 8785 text of the value at node `at` (numbers in their shortest ECMAScript form).
  std::string canonical_at(std::size_t at = 0) const {
    std::string out;
    string_writer w{&out};
    write_canonical(w, at);
    return out;
  }

  // Writes the object at node `obj` in RFC 8785 form with its member `name` set to `json_text`
  // (canonical JSON, written as it is): in place of the object's own member of that name, or
  // added when it has none. (The evidence writer fills in an event's content hash this way.)
  template <class W>
  void write_canonical_with(W& w, std::size_t obj, std::string_view name, std::string_view json_text) const {
    constexpr std::size_t given = static_cast<std::size_t>(-1);
    const node& o = nodes_[obj];
    std::vector<entry> members;
    members.reserve(o.count + 1);
    for (std::size_t j = obj + 1; j < o.payload; j = next(j + 1))
      if (string_at(j) != name)
        members.push_back(entry{string_at(j), j, j + 1});
    members.push_back(entry{name, given, given});
    std::sort(members.begin(), members.end(),
              [](const entry& a, const entry& b) { return utf16_less(a.name, b.name); });
    std::vector<entry> scratch;
    std::vector<level> stack;
    w.put('{');
    for (std::size_t k = 0; k < members.size(); ++k) {
      if (k != 0)
        w.put(',');
      const entry& e = members[k];
      if (e.name_node == given) {
        write_string(w, name);
        w.put(':');
        w.write(json_text.data(), json_text.size());
      } else {
        write_string_node(w, e.name_node);
        w.put(':');
        write(w, e.value_node, scratch, stack);
      }
    }
    w.put('}');
  }

  std::string canonical() const {
    std::string out;
    out.reserve(input_.size());
    string_sink s{&out};
    {
      writer<string_sink> w(s);
      write_canonical(w);
    }
    return out;
  }

  // The value at node i as a DOM value (for callers that need to edit it).
  value to_value(std::size_t i = 0) const {
    // The containers being filled, innermost last (a heap-allocated stack, not recursion).
    struct open {
      std::size_t end;  // one past its last node
      value v;          // the array or object
    };
    std::vector<open> stack;
    value result;
    auto place = [&](value x) {
      if (stack.empty()) {
        result = std::move(x);
      } else if (value& top = stack.back().v; top.is_object()) {
        top.as_object().back().value = std::move(x);
      } else {
        top.as_array().push_back(std::move(x));
      }
    };
    const std::size_t stop = next(i);
    for (std::size_t j = i;;) {
      while (!stack.empty() && j == stack.back().end) {
        value done = std::move(stack.back().v);
        stack.pop_back();
        place(std::move(done));
      }
      if (j == stop)
        return result;
      if (!stack.empty() && stack.back().v.is_object())
        stack.back().v.as_object().push_back(member{std::string(string_at(j++)), value()});
      const node& n = nodes_[j];
      switch (n.kind) {
        case kind::null:
          place(value(nullptr));
          break;
        case kind::boolean:
          place(value(n.payload != 0));
          break;
        case kind::number:
          place(value(number_at(j)));
          break;
        case kind::string:
          place(value(std::string(string_at(j))));
          break;
        case kind::array: {
          json::array a;
          a.reserve(n.count);
          stack.push_back(open{static_cast<std::size_t>(n.payload), value(std::move(a))});
          break;
        }
        case kind::object: {
          json::object o;
          o.reserve(n.count);
          stack.push_back(open{static_cast<std::size_t>(n.payload), value(std::move(o))});
          break;
        }
      }
      ++j;
    }
  }

 private:
  struct entry {
    std::string_view name;
    std::size_t name_node;
    std::size_t value_node;
  };

  // The node array (on huge pages when large).
  using tape = detail::big_vector<node>;

  ASSAY_ALWAYS_INLINE std::size_t push(kind k, std::uint32_t count, std::uint64_t payload, bool flag = false) {
    return nodes_.push_back(node{k, flag, count, payload});
  }

  // --- the fast parser --------------------------------------------------------------------

  struct fast_parser {
    fast_parser(document& doc, const limits& l) : d(doc), lim(l) {}
    document& d;
    const limits lim;  // a copy: read in the hot loop without going through a pointer
    const char* begin = nullptr;
    const char* p = nullptr;
    const char* end = nullptr;

    struct frame {
      std::size_t at;         // the container's node
      std::size_t count;      // elements or members so far
      std::size_t last_name;  // object: node of the previous member name
      bool is_object;
      bool sorted;  // object: names so far strictly increasing in UTF-16 order (else in `names`)
    };
    std::vector<frame> stack;
    // The names of the unsorted objects being read, as views: the input and the side buffer
    // (reserved once, see escaped_string()) never move.
    name_set names;
    lex::problem problem;   // what the lexer found wrong (the cursor reports it)
    std::string_view last;  // the string read last (a member name is looked at once it is read)

    // Whitespace is rare between tokens of generated JSON: one comparison says there is none.
    ASSAY_ALWAYS_INLINE void skip_ws() noexcept {
      if (p != end && static_cast<unsigned char>(*p) <= ' ') [[unlikely]]
        while (p != end && lex::is_ws(static_cast<unsigned char>(*p)))
          ++p;
    }

    // The tape as the parser fills it: the next node and the end of the room reserved, kept
    // here (pointers, which the nodes written cannot alias) rather than re-read from the
    // document after every node.
    node* base = nullptr;
    node* next = nullptr;
    node* room_end = nullptr;

    ASSAY_ALWAYS_INLINE std::size_t put(kind k, std::uint32_t count, std::uint64_t payload, bool flag = false) {
      if (next == room_end) [[unlikely]]
        grow();
      *next = node{k, flag, count, payload};
      return static_cast<std::size_t>(next++ - base);
    }
    std::size_t size() const noexcept { return static_cast<std::size_t>(next - base); }
    void attach() noexcept {
      base = d.nodes_.data();
      next = base + d.nodes_.size();
      room_end = base + d.nodes_.capacity();
    }
    ASSAY_NOINLINE void grow() {
      d.nodes_.resize_within(size());
      d.nodes_.reserve(d.nodes_.capacity() < 32 ? 64 : 2 * d.nodes_.capacity());
      attach();
    }

    bool run() {
      attach();
      const bool ok = run_tokens();
      d.nodes_.resize_within(size());
      return ok;
    }

    bool run_tokens() {
      const std::string_view text = d.input_;
      begin = p = text.data();
      end = p + text.size();
      if (text.size() > lim.max_input_bytes)
        return false;
      if (text.size() >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        return false;
      stack.reserve(16);
      for (;;) {
        // A value is expected at p.
        skip_ws();
        if (p == end)
          return false;
        bool opened = false;
        switch (*p) {
          case '{':
          case '[': {
            if (stack.size() >= lim.max_depth)
              return false;
            const bool is_object = *p == '{';
            const std::size_t at = put(is_object ? kind::object : kind::array, 0, 0);
            stack.push_back(frame{at, 0, 0, is_object, true});
            ++p;
            skip_ws();
            if (p == end)
              return false;
            if (*p == (is_object ? '}' : ']')) {
              ++p;
              close();
              break;
            }
            if (is_object) {
              if (!member_name())
                return false;
            } else {
              stack.back().count = 1;
            }
            opened = true;
            break;
          }
          case '"':
            if (!string())
              return false;
            break;
          case 't':
            if (end - p < 4 || std::memcmp(p, "true", 4) != 0)
              return false;
            p += 4;
            put(kind::boolean, 0, 1);
            break;
          case 'f':
            if (end - p < 5 || std::memcmp(p, "false", 5) != 0)
              return false;
            p += 5;
            put(kind::boolean, 0, 0);
            break;
          case 'n':
            if (end - p < 4 || std::memcmp(p, "null", 4) != 0)
              return false;
            p += 4;
            put(kind::null, 0, 0);
            break;
          default:
            if (!number())
              return false;
            break;
        }
        if (opened)
          continue;
        // After a value: separators and closing brackets, until the next value or the end.
        for (;;) {
          skip_ws();
          if (stack.empty())
            return p == end;
          if (p == end)
            return false;
          frame& f = stack.back();
          if (*p == ',') {
            ++p;
            if (f.is_object) {
              skip_ws();
              if (!member_name())
                return false;
            } else {
              ++f.count;
            }
            break;
          }
          if (*p != (f.is_object ? '}' : ']'))
            return false;
          ++p;
          close();
        }
      }
    }

    void close() {
      const frame& f = stack.back();
      node& n = base[f.at];
      n.count = static_cast<std::uint32_t>(f.count);
      n.payload = size();
      if (f.is_object) {
        n.flag = f.sorted;
        if (!f.sorted)
          names.close();
      }
      stack.pop_back();
    }

    // At a member name (after '{' or ','): reads it, checks for a repeat, and consumes the ':'.
    ASSAY_ALWAYS_INLINE bool member_name() {
      frame& f = stack.back();
      if (p == end || *p != '"' || f.count >= lim.max_members)
        return false;
      if (!string<lex::expect::ascii>())
        return false;
      const std::size_t name = size() - 1;
      if (f.count == 0) {
        f.last_name = name;
      } else if (f.sorted) {
        // Strictly increasing names cannot repeat; the common case costs one comparison.
        if (utf16_less(d.string_at(f.last_name), last)) {
          f.last_name = name;
        } else {
          // Out of order from here on: the names so far (distinct, being sorted) go into the
          // set that finds repeats.
          f.sorted = false;
          names.open();
          for (std::size_t j = f.at + 1; j < name; j = d.next(j + 1))
            names.insert_view(d.string_at(j));
          if (!names.insert_view(last))
            return false;
        }
      } else if (!names.insert_view(last)) {
        return false;
      }
      ++f.count;
      skip_ws();
      if (p == end || *p != ':')
        return false;
      ++p;
      return true;
    }

    // At an opening quote: validates the string and pushes its node.
    template <lex::expect Expect = lex::expect::either>
    ASSAY_ALWAYS_INLINE bool string() {
      const char* start = ++p;
      const lex::stop s = lex::scan_plain<Expect>(p, end, lim.reject_noncharacters, problem);
      if (s == lex::stop::quote) [[likely]] {
        const std::size_t len = static_cast<std::size_t>(p - start);
        ++p;
        if (len > lim.max_string_chars && lex::code_points(start, len) > lim.max_string_chars)
          return false;
        put(kind::string, static_cast<std::uint32_t>(len), static_cast<std::uint64_t>(start - begin));
        last = std::string_view(start, len);
        return true;
      }
      return s == lex::stop::backslash && escaped_string(start);
    }

    // At the first backslash of the string that starts at `start`: decodes it into the side
    // buffer and pushes its node.
    bool escaped_string(const char* start) {
      char_buffer& side = d.side_;
      // Decoded text never outgrows the input; 16 bytes more let the scans store whole blocks.
      // (Only the first escaped string of a parse finds less: the buffer is still empty.)
      if (side.capacity() < static_cast<std::size_t>(end - begin) + 16)
        side.reserve(static_cast<std::size_t>(end - begin) + 16);
      const std::size_t at = side.size();
      side.append(start, static_cast<std::size_t>(p - start));
      if (lim.reject_noncharacters ? !lex::scan_escaped(p, end, true, side, problem)
                                   : !lex::scan_escaped_copy(p, end, side, problem))
        return false;
      ++p;
      const std::size_t len = side.size() - at;
      if (len > lim.max_string_chars && lex::code_points(side.data() + at, len) > lim.max_string_chars)
        return false;
      put(kind::string, static_cast<std::uint32_t>(len), at, true);
      last = std::string_view(side.data() + at, len);
      return true;
    }

    // At the first byte of a number (or of something that is not a value).
    ASSAY_ALWAYS_INLINE bool number() {
      lex::number_shape n;
      if (!lex::scan_number(p, end, n, problem))
        return false;
      // Text that is already the ECMAScript form of its value: integers of up to 15 digits
      // (exact in a double, printed as written) other than -0, and plain decimals of up to 15
      // significant digits without trailing zeros in the fixed-notation range (>= 1e-6). A
      // decimal of <= 15 significant digits is the shortest form of the double nearest it
      // (DBL_DIG), so the shortest round-trip digits are its own.
      bool verbatim = false;
      if (n.exponent == nullptr) {
        if (n.frac_digits == 0) {
          verbatim = n.int_digits <= 15 && !(n.negative && n.zero_int);
        } else if (!n.frac_trailing_zero) {
          verbatim = n.zero_int ? (n.frac_zeros <= 5 && n.frac_digits - n.frac_zeros <= 15)
                                : n.int_digits + n.frac_digits <= 15;
        }
      }
      const std::size_t len = static_cast<std::size_t>(p - n.begin);
      if (verbatim) {
        put(kind::number, static_cast<std::uint32_t>(len), static_cast<std::uint64_t>(n.begin - begin), true);
        return true;
      }
      double v = 0;
      if (!lex::number_value(n, v, problem))
        return false;
      std::uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      put(kind::number, n.frac_digits != 0 || n.exponent != nullptr ? 1 : 0, bits);
      return true;
    }
  };

  // --- the cursor-driven parser ---------------------------------------------------------

  struct builder {
    document& d;
    cursor& c;

    void push_string(std::string_view s) {
      const char* in = d.input_.data();
      if (s.data() >= in && s.data() + s.size() <= in + d.input_.size()) {
        d.push(kind::string, static_cast<std::uint32_t>(s.size()), static_cast<std::uint64_t>(s.data() - in));
      } else {
        const std::size_t at = d.side_.size();
        d.side_.append(s);
        d.push(kind::string, static_cast<std::uint32_t>(s.size()), at, true);
      }
    }

    // Reads one value onto the tape. The open containers' nodes are kept on a heap-allocated
    // stack, as the cursor keeps its levels: no recursion.
    bool run() {
      struct open {
        std::size_t at;  // the container's node
        std::uint32_t count;
        bool is_object;
      };
      std::vector<open> stack;
      for (;;) {
        const token t = c.expect_value();
        switch (t) {
          case token::object:
          case token::array: {
            const bool is_object = t == token::object;
            if (!(is_object ? c.enter_object() : c.enter_array()))
              return false;
            stack.push_back(open{d.push(is_object ? kind::object : kind::array, 0, 0), 0, is_object});
            break;
          }
          case token::string: {
            std::string_view s;
            if (!c.read_string(s))
              return false;
            push_string(s);
            break;
          }
          case token::number: {
            double v = 0;
            const std::size_t from = c.offset();
            if (!c.read_number(v))
              return false;
            // Between the two offsets: the number, and before it only whitespace or a separator.
            const bool fraction_or_exponent =
                d.input_.substr(from, c.offset() - from).find_first_of(".eE") != std::string_view::npos;
            std::uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            d.push(kind::number, fraction_or_exponent ? 1 : 0, bits);
            break;
          }
          case token::boolean: {
            bool b = false;
            if (!c.read_bool(b))
              return false;
            d.push(kind::boolean, 0, b ? 1 : 0);
            break;
          }
          case token::null:
            if (!c.read_null())
              return false;
            d.push(kind::null, 0, 0);
            break;
          default:
            return false;
        }
        // On to the next value, closing the containers that end here.
        for (;;) {
          if (stack.empty())
            return true;
          open& top = stack.back();
          if (top.is_object) {
            std::string_view name;
            if (c.next_member(name)) {
              if (!c.check_unique_name(name))
                return false;
              push_string(name);
              ++top.count;
              break;
            }
          } else if (c.next_element()) {
            ++top.count;
            break;
          }
          if (!c.ok())
            return false;
          d.nodes_[top.at].count = top.count;
          d.nodes_[top.at].payload = d.nodes_.size();
          stack.pop_back();
        }
      }
    }
  };

  // --- canonical output -------------------------------------------------------------------

  struct level {
    std::size_t container;  // node of the open array or object
    std::size_t next;       // array: node of the next element; object: index into scratch
    std::size_t end;        // array: one past the last node; object: end of its entries in scratch
    bool first;
  };

  // Containers are kept on a heap-allocated stack, not by recursion: any depth the limits let
  // through can be written.
  template <class W>
  void write(W& w, std::size_t at, std::vector<entry>& scratch, std::vector<level>& stack) const {
    std::size_t i = at;
    for (;;) {
      const node& n = nodes_[i];
      switch (n.kind) {
        case kind::null:
          w.write("null", 4);
          break;
        case kind::boolean:
          if (n.payload) {
            w.write("true", 4);
          } else {
            w.write("false", 5);
          }
          break;
        case kind::number:
          if (n.flag) {
            w.write(input_.data() + n.payload, n.count);
          } else {
            write_number(w, number_at(i));
          }
          break;
        case kind::string:
          write_string_node(w, i);
          break;
        case kind::array:
          w.put('[');
          stack.push_back(level{i, i + 1, static_cast<std::size_t>(n.payload), true});
          break;
        case kind::object: {
          w.put('{');
          const std::size_t base = scratch.size();
          if (n.flag) {
            // Already in order: walk the tape directly.
            stack.push_back(level{i, i + 1, static_cast<std::size_t>(n.payload), true});
            break;
          }
          for (std::size_t j = i + 1; j < n.payload; j = next(j + 1))
            scratch.push_back(entry{string_at(j), j, j + 1});
          auto first = scratch.begin() + static_cast<std::ptrdiff_t>(base);
          auto less = [](const entry& a, const entry& b) { return utf16_less(a.name, b.name); };
          if (!std::is_sorted(first, scratch.end(), less))
            std::sort(first, scratch.end(), less);
          stack.push_back(level{i, base, scratch.size(), true});
          break;
        }
      }
      // The next value: the next element or member of the innermost open container, closing
      // those that are complete.
      for (;;) {
        if (stack.empty())
          return;
        level& l = stack.back();
        const node& c = nodes_[l.container];
        if (l.next == l.end) {
          if (c.kind == kind::array) {
            w.put(']');
          } else {
            w.put('}');
            if (!c.flag)
              scratch.resize(scratch.size() - c.count);
          }
          stack.pop_back();
          continue;
        }
        if (!l.first)
          w.put(',');
        l.first = false;
        if (c.kind == kind::array) {
          i = l.next;
          l.next = next(i);
        } else if (c.flag) {
          write_string_node(w, l.next);
          w.put(':');
          i = l.next + 1;
          l.next = next(i);
        } else {
          const entry& e = scratch[l.next++];
          write_string_node(w, e.name_node);
          w.put(':');
          i = e.value_node;
        }
        break;
      }
    }
  }

  template <class W>
  void write_string_node(W& w, std::size_t i) const {
    const node& n = nodes_[i];
    if (!n.flag) {
      // Raw input without escapes: no control characters, quotes or backslashes, valid UTF-8,
      // so its canonical form is the bytes themselves.
      w.put('"');
      w.write(input_.data() + n.payload, n.count);
      w.put('"');
    } else {
      write_valid_string(w, string_at(i));  // decoded from valid input: valid UTF-8
    }
  }

  std::string_view input_;
  tape nodes_;
  char_buffer side_;
};

}  // namespace assay::json
