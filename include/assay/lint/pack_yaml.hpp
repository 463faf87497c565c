// assay/lint/pack_yaml.hpp — reading YAML packs with libyaml (optional: only this header needs it;
// pkg-config yaml-0.1).
//
//   auto p = assay::lint::load_pack(text, source, assay::lint::yaml_options());
//
// One YAML document, read by libyaml's event parser, the C library whose lineage the reference's
// YAML reader comes from: so line breaks are LF, CR, CRLF, NEL, LS and PS, control characters
// other than TAB, LF and CR are refused, and the same bytes mean the same pack in both tools
// (docs/packs.md, "Reading packs safely"). The events are built into the `pack_node` tree here, so
// that nothing is lost on the way: a key given twice in one mapping is an error, scalars keep
// whether they were plain and their tag, and every node keeps its line and column. Aliases are
// expanded within budgets on the nodes and the bytes of scalar text they add up to (an anchor on
// a 256 KiB string, aliased 64 × 64 times, must not become a gigabyte). JSON is YAML here, so
// this reader takes JSON packs too, with the same meaning as the strict reader of
// pack_document.hpp.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/pack_document.hpp"

#include <yaml.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

struct yaml_limits {
  std::size_t max_depth = 64;       // nested sequences and mappings, as the JSON reader
  std::size_t max_nodes = 1000000;  // nodes after expanding aliases
  // Bytes of scalar text (keys and values, tags not counted) after expanding aliases. A pack
  // file is at most 4 MiB (resolve.hpp), so its own text fits with room for aliases.
  std::size_t max_bytes = std::size_t{8} << 20;
  // Per mapping, as the JSON reader's per object. It also bounds the duplicate-key search, which
  // compares each key with those before it: 120,000 keys took 24 s.
  std::size_t max_members = 10000;
};

namespace detail {

struct yaml_failure {
  error e;
};

// The length of the UTF-8 sequence a lead byte starts (the text is valid UTF-8).
constexpr std::size_t utf8_length(unsigned char lead) noexcept {
  return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

// libyaml marks count characters (index, column) and lines 0-based; positions here are a byte
// offset with 1-based line and column. Marks come in input order, so the byte offset of a
// character index is counted on from the last one asked for (from the start if it goes back).
class yaml_marks {
 public:
  explicit yaml_marks(std::string_view text) : text_(text) {}

  text_position at(const yaml_mark_t& m) {
    if (m.index < chars_)
      chars_ = bytes_ = 0;
    while (chars_ < m.index && bytes_ < text_.size()) {
      bytes_ += utf8_length(static_cast<unsigned char>(text_[bytes_]));
      ++chars_;
    }
    return {std::min(bytes_, text_.size()), m.line + 1, m.column + 1};
  }

 private:
  std::string_view text_;
  std::size_t chars_ = 0, bytes_ = 0;
};

// The position of a byte offset with YAML's line breaks (LF, CR, CRLF, NEL, LS, PS); for errors
// libyaml places by byte offset only (its reader's).
inline text_position yaml_position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset;) {
    const std::string_view rest = text.substr(i);
    std::size_t brk = 0;
    if (rest.substr(0, 2) == "\r\n")
      brk = 2;
    else if (rest[0] == '\r' || rest[0] == '\n')
      brk = 1;
    else if (rest.substr(0, 2) == "\xC2\x85")
      brk = 2;
    else if (rest.substr(0, 3) == "\xE2\x80\xA8" || rest.substr(0, 3) == "\xE2\x80\xA9")
      brk = 3;
    if (brk != 0) {
      i += brk;
      ++line;
      column = 1;
    } else {
      i += utf8_length(static_cast<unsigned char>(rest[0]));
      ++column;
    }
  }
  return {offset, line, column};
}

inline void place(error& e, const text_position& p) {
  e.offset = p.offset;
  e.line = p.line;
  e.column = p.column;
}

// Owns a libyaml parser / event (the C API's init and delete).
struct yaml_parser_owner {
  yaml_parser_t p{};
  bool ok = false;
  yaml_parser_owner() { ok = yaml_parser_initialize(&p) != 0; }
  ~yaml_parser_owner() { yaml_parser_delete(&p); }
  yaml_parser_owner(const yaml_parser_owner&) = delete;
  yaml_parser_owner& operator=(const yaml_parser_owner&) = delete;
};

struct yaml_event_owner {
  yaml_event_t e{};
  ~yaml_event_owner() { yaml_event_delete(&e); }
};

class yaml_tree_builder {
 public:
  yaml_tree_builder(std::string_view text, const yaml_limits& lim) : marks_(text), lim_(lim) {}

  pack_node& root() { return root_; }
  std::size_t documents() const noexcept { return documents_; }

  // One parser event; false at the end of the stream.
  bool on(const yaml_event_t& ev) {
    switch (ev.type) {
      case YAML_STREAM_END_EVENT:
        return false;
      case YAML_DOCUMENT_START_EVENT:
        if (++documents_ > 1)
          fail_at(at(ev.start_mark), errc::trailing_content, "a pack is one YAML document; a second one starts here");
        break;
      case YAML_ALIAS_EVENT:
        alias(ev.start_mark, as_string(ev.data.alias.anchor));
        break;
      case YAML_SCALAR_EVENT:
        scalar(ev);
        break;
      case YAML_SEQUENCE_START_EVENT:
        open(ev.start_mark, pack_node::kind::sequence, as_string(ev.data.sequence_start.anchor));
        break;
      case YAML_MAPPING_START_EVENT:
        open(ev.start_mark, pack_node::kind::mapping, as_string(ev.data.mapping_start.anchor));
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        close();
        break;
      default:
        break;
    }
    return true;
  }

 private:
  // What a node adds up to: nodes, bytes of scalar text, nested sequences and mappings.
  struct extent {
    std::size_t nodes = 0, bytes = 0, depth = 0;
  };
  struct anchored {
    pack_node node;
    extent size;
  };
  struct frame {
    pack_node node;
    std::string anchor;
    bool awaiting_value = false;  // mapping: a key was read, its value is next
    extent inside;                // of the items and keys read so far
  };

  static std::string as_string(const yaml_char_t* s) {
    return s == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(s));
  }

  text_position at(const yaml_mark_t& m) { return marks_.at(m); }

  [[noreturn]] void fail_at(const text_position& p, errc code, std::string message) const {
    error e = make_error(code, std::move(message), pointer());
    place(e, p);
    throw yaml_failure{std::move(e)};
  }

  // The JSON Pointer of the node being read.
  std::string pointer() const {
    std::string out;
    for (const frame& f : stack_) {
      if (f.node.is_sequence())
        out += "/" + std::to_string(f.node.items.size());
      else if (f.awaiting_value)
        out += "/" + json::escape_pointer_token(f.node.keys.back());
    }
    return out;
  }

  void count(const extent& more, const text_position& p) {
    nodes_ += more.nodes;
    bytes_ += more.bytes;
    if (nodes_ > lim_.max_nodes)
      fail_at(p, errc::size_limit, "more than " + std::to_string(lim_.max_nodes) + " nodes (aliases expanded)");
    if (bytes_ > lim_.max_bytes)
      fail_at(p, errc::size_limit,
              "more than " + std::to_string(lim_.max_bytes) + " bytes of scalar text (aliases expanded)");
  }

  void scalar(const yaml_event_t& ev) {
    const auto& s = ev.data.scalar;
    pack_node n;
    n.at = at(ev.start_mark);
    const std::string tag = as_string(s.tag);
    // Plain when written plain, without the non-specific tag `!` (which makes a string). A quoted
    // scalar is never null, whatever its tag: `!!null "~"` is the text "~", as in the reference.
    n.plain = s.style == YAML_PLAIN_SCALAR_STYLE && tag != "!";
    if (tag != "!")
      n.tag = tag;
    n.text.assign(reinterpret_cast<const char*>(s.value), s.length);
    const extent e{1, n.text.size(), 0};
    count(e, n.at);
    add(std::move(n), e, as_string(s.anchor));
  }

  void alias(const yaml_mark_t& m, const std::string& name) {
    const text_position p = at(m);
    auto it = anchors_.find(name);
    if (it == anchors_.end())
      fail_at(p, errc::invalid_argument, "alias of an unknown anchor " + quoted_text(name));
    const extent e = it->second.size;
    if (stack_.size() + e.depth > lim_.max_depth)
      fail_at(p, errc::depth_limit,
              "nesting deeper than " + std::to_string(lim_.max_depth) + " levels (aliases expanded)");
    count(e, p);  // before the copy is made
    pack_node copy = it->second.node;
    copy.at = p;
    add(std::move(copy), e, {});
  }

  void open(const yaml_mark_t& m, pack_node::kind k, std::string anchor) {
    const text_position p = at(m);
    if (stack_.size() >= lim_.max_depth)
      fail_at(p, errc::depth_limit, "nesting deeper than " + std::to_string(lim_.max_depth) + " levels");
    frame f{pack_node{}, std::move(anchor), false, {}};
    f.node.type = k;
    f.node.at = p;
    count({1, 0, 0}, p);
    stack_.push_back(std::move(f));
  }

  void close() {
    frame f = std::move(stack_.back());
    stack_.pop_back();
    const extent e{f.inside.nodes + 1, f.inside.bytes, f.inside.depth + 1};
    add(std::move(f.node), e, f.anchor);
  }

  void add(pack_node n, const extent& e, const std::string& anchor) {
    if (!anchor.empty())
      anchors_[anchor] = anchored{n, e};
    if (stack_.empty()) {
      root_ = std::move(n);
      return;
    }
    frame& top = stack_.back();
    top.inside.nodes += e.nodes;
    top.inside.bytes += e.bytes;
    top.inside.depth = std::max(top.inside.depth, e.depth);
    if (top.node.is_sequence()) {
      top.node.items.push_back(std::move(n));
    } else if (top.awaiting_value) {
      top.node.items.push_back(std::move(n));
      top.awaiting_value = false;
    } else {
      if (!n.is_scalar())
        fail_at(n.at, errc::type_mismatch, "a mapping key must be a scalar");
      if (top.node.keys.size() >= lim_.max_members)
        fail_at(n.at, errc::member_limit, "mapping has more than " + std::to_string(lim_.max_members) + " members");
      for (const std::string& k : top.node.keys)
        if (k == n.text) {
          top.awaiting_value = true;
          top.node.keys.push_back(n.text);  // for the pointer of the error
          fail_at(n.at, errc::duplicate_member, duplicate_key_message(n.text));
        }
      top.node.keys.push_back(std::move(n.text));
      top.node.key_at.push_back(n.at);
      top.awaiting_value = true;
    }
  }

  yaml_marks marks_;
  yaml_limits lim_;
  pack_node root_;
  std::vector<frame> stack_;
  std::map<std::string, anchored> anchors_;
  std::size_t documents_ = 0;
  std::size_t nodes_ = 0, bytes_ = 0;
};

// libyaml's error, placed: the reader's by byte offset, the scanner's and parser's by mark.
inline error yaml_syntax_error(std::string_view text, const yaml_parser_t& p) {
  std::string message = "YAML: " + std::string(p.problem != nullptr ? p.problem : "cannot read the document");
  errc code = errc::unexpected_character;
  if (p.error == YAML_READER_ERROR) {
    if (message == "YAML: control characters are not allowed") {
      char hex[16];
      std::snprintf(hex, sizeof hex, " (U+%04X)", static_cast<unsigned>(p.problem_value));
      message += hex;
      code = errc::unescaped_control;
    }
    error e = make_error(code, std::move(message));
    place(e, yaml_position_of(text, p.problem_offset));
    return e;
  }
  if (p.error == YAML_MEMORY_ERROR)
    return make_error(errc::size_limit, "YAML: out of memory");
  if (p.context != nullptr)
    message += std::string(" (") + p.context + ")";
  error e = make_error(code, std::move(message));
  yaml_marks marks(text);
  place(e, marks.at(p.problem_mark));
  return e;
}

}  // namespace detail

// Reads one YAML document (JSON included) into a pack tree.
inline result<pack_node> read_yaml_pack(std::string_view text, const yaml_limits& lim) {
  if (!json::is_valid_utf8(text))
    return make_error(errc::invalid_utf8, "a pack must be UTF-8 text");
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    // Refused, as in JSON (docs/json.md).
    error e = make_error(errc::byte_order_mark, "a byte-order mark is not allowed at the start of a pack");
    e.offset = 0;
    e.line = e.column = 1;
    return e;
  }
  detail::yaml_parser_owner parser;
  if (!parser.ok)
    return make_error(errc::size_limit, "YAML: cannot start the parser (out of memory)");
  yaml_parser_set_encoding(&parser.p, YAML_UTF8_ENCODING);
  yaml_parser_set_input_string(&parser.p, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  detail::yaml_tree_builder b(text, lim);
  try {
    while (true) {
      detail::yaml_event_owner ev;
      if (yaml_parser_parse(&parser.p, &ev.e) == 0)
        return detail::yaml_syntax_error(text, parser.p);
      if (!b.on(ev.e))
        break;
    }
  } catch (detail::yaml_failure& f) {
    return std::move(f.e);
  }
  if (b.documents() == 0)
    return make_error(errc::unexpected_end, "empty pack: no YAML document");
  return std::move(b.root());
}

inline result<pack_node> yaml_pack_reader(std::string_view text) {
  return read_yaml_pack(text, yaml_limits{});
}

// Options that read packs as YAML (JSON included).
inline pack_options yaml_options(pack_options o = {}) {
  o.reader = &yaml_pack_reader;
  return o;
}

}  // namespace assay::lint
