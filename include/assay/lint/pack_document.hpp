// assay/lint/pack_document.hpp — a pack file as a tree of YAML-like nodes, and the way its scalars
// become JSON (docs/packs.md).
//
// Packs are YAML 1.2 or JSON, and JSON is read as YAML. Both readers (the strict JSON reader here,
// libyaml in pack_yaml.hpp) produce the same `pack_node` tree: scalars keep their text, whether
// they were plain, and any tag; mappings keep their keys in order (a key given twice is an error,
// at any depth); every node knows its position. A JSON string is a quoted scalar, a JSON number,
// true, false or null a plain one with its source text, so a JSON pack means what the same text
// means as YAML.
//
// `to_json<T>` then turns the tree into JSON shaped by a reflected contract, as the reference's
// serde reading does: where T has a string the scalar's text is taken whatever it looks like
// (`version: 1.0` is "1.0", `name: null` is "null"); an optional member written as null (`~`,
// `null`, or nothing) is absent; everywhere else (booleans, numbers, values of any JSON type,
// members T does not declare) a plain scalar is typed by the YAML 1.2 core schema the way the
// reference types it, so `min: "1"` stays a string and is refused by the contract.
#pragma once

#include "assay/error.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/reader.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/codec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

// Where a node starts in the input: byte offset (0-based), line and column (1-based).
struct text_position {
  std::size_t offset = error::npos;
  std::size_t line = 0;
  std::size_t column = 0;
};

struct pack_node {
  enum class kind : std::uint8_t { scalar, sequence, mapping };

  kind type = kind::scalar;
  bool plain = true;             // scalar: written plain (not quoted, not a block scalar); only plain scalars are typed
  std::string tag;               // scalar: an explicit tag ("tag:yaml.org,2002:int", "!foo"), "" when none
  std::string text;              // scalar: its value
  std::vector<pack_node> items;  // sequence: the items; mapping: the values
  std::vector<std::string> keys;      // mapping: the keys, in input order (parallel to items)
  std::vector<text_position> key_at;  // mapping: where each key starts
  text_position at;

  bool is_scalar() const noexcept { return type == kind::scalar; }
  bool is_mapping() const noexcept { return type == kind::mapping; }
  bool is_sequence() const noexcept { return type == kind::sequence; }

  // The value of a mapping member (nullptr when absent or not a mapping).
  const pack_node* find(std::string_view key) const noexcept {
    if (type != kind::mapping)
      return nullptr;
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key)
        return &items[i];
    return nullptr;
  }
};

// "\"text\"" for a message: json::quote_for_message (made printable by the one sanitizer, long
// text cut).
inline std::string quoted_text(std::string_view s) {
  return json::quote_for_message(s);
}

// --- scalars ---------------------------------------------------------------------------------------

namespace yaml_scalar {

inline constexpr std::string_view tag_prefix = "tag:yaml.org,2002:";

constexpr bool is_null_text(std::string_view s) noexcept {
  return s == "~" || s == "null" || s == "Null" || s == "NULL";
}

inline constexpr std::string_view null_tag = "tag:yaml.org,2002:null";

// A plain scalar that is null: `~`, null, Null, NULL, or nothing at all (with a !!null tag: one
// of the four words).
inline bool is_null(const pack_node& n) noexcept {
  if (!n.is_scalar() || !n.plain)
    return false;
  if (n.tag.empty())
    return n.text.empty() || is_null_text(n.text);
  return n.tag == null_tag && is_null_text(n.text);
}

constexpr int bool_value(std::string_view s) noexcept {  // 1 true, 0 false, -1 neither
  if (s == "true" || s == "True" || s == "TRUE")
    return 1;
  if (s == "false" || s == "False" || s == "FALSE")
    return 0;
  return -1;
}

// A leading zero followed by digits only ("012", "-007"): a string in YAML 1.2, not a number.
constexpr bool digits_with_leading_zero(std::string_view s) noexcept {
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  if (s.size() < 2 || s[0] != '0')
    return false;
  for (char c : s.substr(1))
    if (c < '0' || c > '9')
      return false;
  return true;
}

// An integer in the core schema as the reference reads it: [+]digits, [-]digits, and 0x, 0o, 0b
// forms with an optional sign before the prefix. 1 with its exact magnitude and sign when a 64-bit
// integer holds it (-2^63 ..= 2^64 - 1; "-0" is 0, not negative); -1 when it is written as an
// integer but none holds it (the reference refuses such a pack: serde reads it as i128/u128,
// which its JSON values cannot hold); 0 when it is not an integer.
inline int parse_integer_exact(std::string_view s, std::uint64_t& magnitude, bool& negative) noexcept {
  negative = false;
  std::string_view body = s;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (!body.empty() && (body[0] == '+' || body[0] == '-'))
    return 0;
  int radix = 10;
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'o' || body[1] == 'b')) {
    radix = body[1] == 'x' ? 16 : body[1] == 'o' ? 8 : 2;
    body.remove_prefix(2);
    if (!body.empty() && (body[0] == '+' || body[0] == '-'))
      return 0;
  } else if (digits_with_leading_zero(s)) {
    return 0;
  }
  if (body.empty())
    return 0;
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), v, radix);
  if (p != body.data() + body.size())
    return 0;
  if (ec == std::errc::result_out_of_range)
    return -1;
  if (ec != std::errc())
    return 0;
  if (negative && v > (std::uint64_t{1} << 63))
    return -1;
  negative = negative && v != 0;
  magnitude = v;
  return 1;
}

// parse_integer_exact() as a double (rounded past 2^53). Values beyond 64 bits are not integers here.
inline bool parse_integer(std::string_view s, double& out) noexcept {
  std::uint64_t v = 0;
  bool negative = false;
  if (parse_integer_exact(s, v, negative) != 1)
    return false;
  out = negative ? -static_cast<double>(v) : v == 0 ? 0.0 : static_cast<double>(v);
  return true;
}

// A float as the reference reads it: [+|-] then digits with an optional '.', an optional
// exponent; or .inf, -.inf, .nan (three capitalizations each), for which `finite` is false.
inline bool parse_float(std::string_view s, double& out, bool& finite) noexcept {
  std::string_view body = s;
  if (!body.empty() && body[0] == '+') {
    body.remove_prefix(1);
    if (!body.empty() && (body[0] == '+' || body[0] == '-'))
      return false;
  }
  finite = false;
  if (body == ".inf" || body == ".Inf" || body == ".INF" || s == "-.inf" || s == "-.Inf" || s == "-.INF" ||
      s == ".nan" || s == ".NaN" || s == ".NAN") {
    out = s[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  std::string_view m = body;
  if (!m.empty() && m[0] == '-')
    m.remove_prefix(1);
  std::size_t i = 0, digits = 0;
  while (i < m.size() && m[i] >= '0' && m[i] <= '9')
    ++i, ++digits;
  if (i < m.size() && m[i] == '.') {
    ++i;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9')
      ++i, ++digits;
  }
  if (digits == 0)
    return false;
  if (i < m.size() && (m[i] == 'e' || m[i] == 'E')) {
    ++i;
    if (i < m.size() && (m[i] == '+' || m[i] == '-'))
      ++i;
    std::size_t exp_digits = 0;
    while (i < m.size() && m[i] >= '0' && m[i] <= '9')
      ++i, ++exp_digits;
    if (exp_digits == 0)
      return false;
  }
  if (i != m.size())
    return false;
  double v = 0;
  auto [p, ec] = std::from_chars(body.data(), body.data() + body.size(), v, std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    // Overflow is no float for the reference (the scalar stays a string); underflow is zero.
    const auto e = body.find_first_of("eE");
    if (e == std::string_view::npos || body.find('-', e) == std::string_view::npos)
      return false;
    v = body[0] == '-' ? -0.0 : 0.0;
  } else if (ec != std::errc() || p != body.data() + body.size()) {
    return false;
  }
  out = v;
  finite = true;
  return true;
}

// The JSON value of a scalar in a typed position (YAML 1.2 core schema, as the reference; .inf
// and .nan, which JSON cannot hold, become null as they do there). Fails for a tag other than the
// core ones and for values a tag does not allow.
inline result<json::value> typed(const pack_node& n) {
  std::string_view tag = n.tag;
  auto bad = [&](std::string what) -> result<json::value> { return make_error(errc::type_mismatch, what); };
  if (!tag.empty()) {
    if (tag.substr(0, tag_prefix.size()) != tag_prefix)
      return bad("unsupported YAML tag \"" + std::string(tag) + "\"");
    tag.remove_prefix(tag_prefix.size());
    double d = 0;
    bool finite = true;
    if (tag == "str")
      return json::value(n.text);
    if (tag == "null")
      return is_null_text(n.text) ? result<json::value>(json::value(nullptr))
                                  : bad(quoted_text(n.text) + " is not null");
    if (tag == "bool")
      return bool_value(n.text) >= 0 ? result<json::value>(json::value(bool_value(n.text) == 1))
                                     : bad(quoted_text(n.text) + " is not a boolean");
    if (tag == "int")
      return parse_integer(n.text, d) ? result<json::value>(json::value(d))
                                      : bad(quoted_text(n.text) + " is not an integer");
    if (tag == "float") {
      if (parse_float(n.text, d, finite))
        return finite ? json::value(d) : json::value(nullptr);
      if (parse_integer(n.text, d))
        return json::value(d);
      return bad(quoted_text(n.text) + " is not a float");
    }
    return bad("unsupported YAML tag \"!!" + std::string(tag) + "\"");
  }
  if (!n.plain)
    return json::value(n.text);
  if (n.text.empty() || is_null_text(n.text))
    return json::value(nullptr);
  if (const int b = bool_value(n.text); b >= 0)
    return json::value(b == 1);
  double d = 0;
  if (parse_integer(n.text, d))
    return json::value(d);
  bool finite = true;
  if (!digits_with_leading_zero(n.text) && parse_float(n.text, d, finite))
    return finite ? json::value(d) : json::value(nullptr);  // JSON has no infinity or NaN: null, as the reference
  return json::value(n.text);
}

}  // namespace yaml_scalar

// --- the strict JSON reader into a tree -------------------------------------------------------------

namespace detail {

// Line and column of byte offsets in one text, for every node a reader makes. Counting from the
// start of the text for each node made reading quadratic (a 64 KiB YAML list took seconds): the
// line starts are found once, and the column is counted on from the previous position when the
// next one is further along the same line (readers ask in input order), else from its line's
// start.
class text_positions {
 public:
  explicit text_positions(std::string_view text) : text_(text) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        line_starts_.push_back(i + 1);
  }

  // The position of a byte offset: line and column (in code points) 1-based; an offset past the
  // end is placed after the last byte, and keeps its value.
  text_position at(std::size_t offset) {
    const std::size_t end = std::min(offset, text_.size());
    const std::size_t line = static_cast<std::size_t>(std::upper_bound(line_starts_.begin(), line_starts_.end(), end) -
                                                      line_starts_.begin()) -
                             1;
    if (line != line_ || end < end_) {
      line_ = line;
      end_ = line_starts_[line];
      column_ = 1;
    }
    for (; end_ < end; ++end_)
      if ((static_cast<unsigned char>(text_[end_]) & 0xC0) != 0x80)
        ++column_;
    return {offset, line + 1, column_};
  }

  // The byte offset of a 0-based line and byte column, the column cut at the line's end and a
  // line past the last one read as the end of the text.
  std::size_t offset_of(std::size_t line, std::size_t byte_column) const {
    if (line >= line_starts_.size())
      return text_.size();
    const std::size_t eol = line + 1 < line_starts_.size() ? line_starts_[line + 1] - 1 : text_.size();
    return std::min(line_starts_[line] + std::min(byte_column, eol - line_starts_[line]), eol);
  }

 private:
  std::string_view text_;
  std::vector<std::size_t> line_starts_;         // the offset of each line's first byte
  std::size_t line_ = 0, end_ = 0, column_ = 1;  // the last position: column_ is that of end_
};

inline std::string duplicate_key_message(std::string_view key) {
  return "duplicate key " + quoted_text(key);
}

struct json_tree_builder {
  json::cursor& c;
  std::string_view text;
  text_positions positions{text};

  text_position at(std::size_t offset) { return positions.at(offset); }

  bool value(pack_node& out) {
    const json::token t = c.expect_value();
    out.at = at(c.value_offset());
    switch (t) {
      case json::token::object: {
        out.type = pack_node::kind::mapping;
        if (!c.enter_object())
          return false;
        std::string_view name;
        while (c.next_member(name)) {
          for (const std::string& k : out.keys)
            if (k == name)
              return c.fail(c.make_error(errc::duplicate_member, c.name_offset(), duplicate_key_message(name),
                                         c.pointer_to_member(name)));
          out.keys.emplace_back(name);
          out.key_at.push_back(at(c.name_offset()));
          out.items.emplace_back();
          if (!value(out.items.back()))
            return false;
        }
        return c.ok();
      }
      case json::token::array: {
        out.type = pack_node::kind::sequence;
        if (!c.enter_array())
          return false;
        while (c.next_element()) {
          out.items.emplace_back();
          if (!value(out.items.back()))
            return false;
        }
        return c.ok();
      }
      case json::token::string: {
        std::string_view s;
        if (!c.read_string(s))
          return false;
        out.plain = false;
        out.text.assign(s);
        return true;
      }
      case json::token::number: {
        const std::size_t begin = c.value_offset();
        double d = 0;
        if (!c.read_number(d))
          return false;
        out.text.assign(text.substr(begin, c.offset() - begin));
        return true;
      }
      case json::token::boolean: {
        bool b = false;
        if (!c.read_bool(b))
          return false;
        out.text = b ? "true" : "false";
        return true;
      }
      case json::token::null:
        out.text = "null";
        return c.read_null();
      default:
        return false;
    }
  }
};

}  // namespace detail

// Reads a JSON pack with the strict reader of docs/json.md (duplicate keys refused at every depth).
inline result<pack_node> read_json_pack(std::string_view text, const json::limits& lim = {}) {
  json::cursor c(text, lim);
  pack_node root;
  detail::json_tree_builder b{c, text};
  if (!c.ok() || !b.value(root) || !c.finish())
    return c.error();
  return root;
}

// --- the tree as JSON shaped by a contract ------------------------------------------------------------

namespace detail {

struct shaping {
  errors errs;
  std::string pointer;

  void fail(const pack_node& n, errc code, std::string message) {
    error e = make_error(code, std::move(message), pointer);
    e.offset = n.at.offset;
    e.line = n.at.line;
    e.column = n.at.column;
    errs.items.push_back(std::move(e));
  }

  // Any JSON: plain scalars typed by the core schema.
  json::value untyped(const pack_node& n) {
    if (n.is_scalar()) {
      auto v = yaml_scalar::typed(n);
      if (v)
        return std::move(*v);
      fail(n, v.error().code, v.error().message);
      return nullptr;
    }
    const std::size_t mark = pointer.size();
    if (n.is_sequence()) {
      json::array a;
      a.reserve(n.items.size());
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        pointer += "/" + std::to_string(i);
        a.push_back(untyped(n.items[i]));
        pointer.resize(mark);
      }
      return a;
    }
    json::object o;
    o.reserve(n.items.size());
    for (std::size_t i = 0; i < n.items.size(); ++i) {
      pointer += "/" + json::escape_pointer_token(n.keys[i]);
      o.push_back({n.keys[i], untyped(n.items[i])});
      pointer.resize(mark);
    }
    return o;
  }

  template <class T>
  json::value shaped(const pack_node& n) {
    using reflect::category;
    constexpr category cat = reflect::category_of<T>();
    if constexpr (cat == category::string || cat == category::enumeration) {
      if (n.is_scalar())
        return json::value(n.text);
      return untyped(n);
    } else if constexpr (cat == category::nullable) {
      if (yaml_scalar::is_null(n))
        return nullptr;
      return shaped<typename T::value_type>(n);
    } else if constexpr (cat == category::array) {
      if (!n.is_sequence())
        return untyped(n);
      json::array a;
      a.reserve(n.items.size());
      const std::size_t mark = pointer.size();
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        pointer += "/" + std::to_string(i);
        a.push_back(shaped<typename T::value_type>(n.items[i]));
        pointer.resize(mark);
      }
      return a;
    } else if constexpr (cat == category::map) {
      if (!n.is_mapping())
        return untyped(n);
      json::object o;
      const std::size_t mark = pointer.size();
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        pointer += "/" + json::escape_pointer_token(n.keys[i]);
        o.push_back({n.keys[i], shaped<typename T::mapped_type>(n.items[i])});
        pointer.resize(mark);
      }
      return o;
    } else if constexpr (cat == category::object) {
      if (!n.is_mapping())
        return untyped(n);
      using info = reflect::struct_info<T>;
      json::object o;
      o.reserve(n.items.size());
      const std::size_t mark = pointer.size();
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        pointer += "/" + json::escape_pointer_token(n.keys[i]);
        const std::size_t field = info::find(n.keys[i]);
        json::value v;
        bool omit = false;
        if (field == info::npos) {
          v = untyped(n.items[i]);
        } else {
          [&]<std::size_t... I>(std::index_sequence<I...>) {
            ((I == field ? (void)member<reflect::field_type<T, I>>(n.items[i], v, omit) : void()), ...);
          }
          (std::make_index_sequence<info::size>{});
        }
        if (!omit)
          o.push_back({n.keys[i], std::move(v)});
        pointer.resize(mark);
      }
      return o;
    } else {
      return untyped(n);
    }
  }

  // A declared member: an optional one written as null is left out.
  template <class F>
  void member(const pack_node& n, json::value& out, bool& omit) {
    if constexpr (reflect::is_std_optional<F>::value) {
      if (yaml_scalar::is_null(n)) {
        omit = true;
        return;
      }
      out = shaped<typename F::value_type>(n);
    } else {
      out = shaped<F>(n);
    }
  }
};

}  // namespace detail

// The tree as JSON shaped by the reflected contract T (see the top of this file). Errors are the
// scalars that break their tag (an unsupported tag, `!!int x`), with their positions.
template <class T>
results<json::value> to_json(const pack_node& root) {
  detail::shaping s;
  json::value v = s.shaped<T>(root);
  if (!s.errs.empty())
    return std::move(s.errs);
  return v;
}

// The tree as JSON, every scalar typed by YAML's core schema (a plain `2.0` a number, `true` a
// boolean; quoted scalars strings): for documents typed as the reference types them, where a
// string position takes a string only (the MCP gate's policy). Errors are the scalars that break
// their tag, with their pointers.
inline results<json::value> to_untyped_json(const pack_node& root) {
  detail::shaping s;
  json::value v = s.untyped(root);
  if (!s.errs.empty())
    return std::move(s.errs);
  return v;
}

// Where a JSON Pointer leads in the tree: the node it names, or the deepest one on its way there
// (`complete` false); `key` is the position of the last mapping key followed, when the last step
// was one (errors about a member, an unknown one say, point at its key).
struct located {
  const pack_node* node = nullptr;
  bool complete = false;
  bool at_key = false;
  text_position key;
};

inline located locate(const pack_node& root, std::string_view pointer) {
  located out{&root, true, false, {}};
  auto parsed = json::pointer::parse(pointer);
  if (!parsed) {
    out.complete = false;
    return out;
  }
  for (const std::string& token : parsed->tokens()) {
    const pack_node& n = *out.node;
    std::size_t i = 0;
    if (n.is_mapping()) {
      while (i < n.keys.size() && n.keys[i] != token)
        ++i;
      if (i == n.keys.size()) {
        out.complete = false;
        return out;
      }
      out.at_key = true;
      out.key = n.key_at[i];
    } else if (n.is_sequence() && json::pointer::parse_index(token, i) && i < n.items.size()) {
      out.at_key = false;
    } else {
      out.complete = false;
      return out;
    }
    out.node = &n.items[i];
  }
  return out;
}

}  // namespace assay::lint
