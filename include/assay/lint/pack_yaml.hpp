// assay/lint/pack_yaml.hpp — reading YAML packs with yaml-cpp (optional: only this header needs it).
//
//   auto p = assay::lint::load_pack(text, source, assay::lint::yaml_options());
//
// YAML 1.2, one document. Built on yaml-cpp's event parser rather than its node tree, so that
// nothing is lost on the way: a key given twice in one mapping is an error (yaml-cpp would keep
// one), scalars keep whether they were plain and their tag, aliases are expanded (within a node
// budget), and every node keeps its line and column. JSON is YAML here, so this reader takes JSON
// packs too, with the same meaning as the strict reader of pack_document.hpp.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/lint/pack.hpp"
#include "assay/lint/pack_document.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace assay::lint {

struct yaml_limits {
  std::size_t max_depth = 64;       // nested sequences and mappings, as the JSON reader
  std::size_t max_nodes = 1000000;  // nodes after expanding aliases
  // Per mapping, as the JSON reader's per object. It also bounds the duplicate-key search, which
  // compares each key with those before it: 120,000 keys took 24 s.
  std::size_t max_members = 10000;
};

namespace detail {

// A yaml-cpp mark (0-based line and byte column; its `pos` is not kept up to date at the end of
// input) as a position in the text.
inline text_position yaml_position(text_positions& positions, const YAML::Mark& m) {
  if (m.is_null() || m.line < 0 || m.column < 0)
    return {};
  return positions.at(positions.offset_of(static_cast<std::size_t>(m.line), static_cast<std::size_t>(m.column)));
}

struct yaml_failure {
  error e;
};

class yaml_tree_builder final : public YAML::EventHandler {
 public:
  yaml_tree_builder(std::string_view text, const yaml_limits& lim) : text_(text), positions_(text), lim_(lim) {}

  pack_node& root() { return root_; }
  std::size_t documents() const noexcept { return documents_; }

  void OnDocumentStart(const YAML::Mark& m) override {
    if (++documents_ > 1)
      fail(m, errc::trailing_content, "a pack is one YAML document; a second one starts here");
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override {
    pack_node n;
    n.at = at(m);
    n.text = null_text(m);
    count(1, n.at);
    add(std::move(n), anchor);
  }

  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end())
      fail(m, errc::invalid_argument, "alias of an unknown anchor");
    pack_node copy = it->second;
    copy.at = at(m);
    if (stack_.size() + depth_of(copy) > lim_.max_depth)
      fail(m, errc::depth_limit,
           "nesting deeper than " + std::to_string(lim_.max_depth) + " levels (aliases expanded)");
    count(size_of(copy), copy.at);
    add(std::move(copy), 0);
  }

  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t anchor, const std::string& value) override {
    pack_node n;
    n.at = at(m);
    n.plain = tag != "!";
    if (tag != "?" && tag != "!")
      n.tag = tag;
    n.text = value;
    count(1, n.at);
    add(std::move(n), anchor);
  }

  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(m, pack_node::kind::sequence, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(m, pack_node::kind::mapping, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct frame {
    pack_node node;
    YAML::anchor_t anchor;
    bool awaiting_value = false;  // mapping: a key was read, its value is next
  };

  text_position at(const YAML::Mark& m) const { return yaml_position(positions_, m); }

  [[noreturn]] void fail(const YAML::Mark& m, errc code, std::string message) const {
    error e = make_error(code, std::move(message), pointer());
    const text_position p = at(m);
    e.offset = p.offset;
    e.line = p.line;
    e.column = p.column;
    throw yaml_failure{std::move(e)};
  }
  [[noreturn]] void fail_at(const text_position& p, errc code, std::string message) const {
    error e = make_error(code, std::move(message), pointer());
    e.offset = p.offset;
    e.line = p.line;
    e.column = p.column;
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

  // yaml-cpp reports `~`, `null` and an empty node alike: the text is read back from the input.
  std::string null_text(const YAML::Mark& m) const {
    const text_position p = at(m);
    if (p.offset >= text_.size())
      return {};
    std::string_view s = text_.substr(p.offset);
    // Node properties (an anchor, a tag) come first.
    while (!s.empty() && (s[0] == '&' || s[0] == '!')) {
      const std::size_t end = s.find_first_of(" \t\r\n");
      s = end == std::string_view::npos ? std::string_view() : s.substr(end);
      while (!s.empty() && (s[0] == ' ' || s[0] == '\t'))
        s.remove_prefix(1);
    }
    for (std::string_view word : {"null", "Null", "NULL", "~"}) {
      if (s.substr(0, word.size()) != word)
        continue;
      if (s.size() == word.size() || std::string_view(" \t\r\n,]}#").find(s[word.size()]) != std::string_view::npos)
        return std::string(word);
    }
    return {};
  }

  static std::size_t size_of(const pack_node& n) {
    std::size_t total = 1;
    for (const pack_node& c : n.items)
      total += size_of(c);
    return total;
  }

  // Nested sequences and mappings in `n`, itself included.
  static std::size_t depth_of(const pack_node& n) {
    std::size_t deepest = 0;
    for (const pack_node& c : n.items)
      deepest = std::max(deepest, depth_of(c));
    return n.is_scalar() ? 0 : deepest + 1;
  }

  void open(const YAML::Mark& m, pack_node::kind k, YAML::anchor_t anchor) {
    if (stack_.size() >= lim_.max_depth)
      fail(m, errc::depth_limit, "nesting deeper than " + std::to_string(lim_.max_depth) + " levels");
    frame f{pack_node{}, anchor};
    f.node.type = k;
    f.node.at = at(m);
    count(1, f.node.at);
    stack_.push_back(std::move(f));
  }

  void close() {
    frame f = std::move(stack_.back());
    stack_.pop_back();
    add(std::move(f.node), f.anchor);
  }

  void count(std::size_t more, const text_position& p) {
    nodes_ += more;
    if (nodes_ > lim_.max_nodes)
      fail_at(p, errc::size_limit, "more than " + std::to_string(lim_.max_nodes) + " nodes (aliases expanded)");
  }

  void add(pack_node n, YAML::anchor_t anchor) {
    if (anchor != 0)
      anchors_[anchor] = n;
    if (stack_.empty()) {
      root_ = std::move(n);
      return;
    }
    frame& top = stack_.back();
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

  std::string_view text_;
  mutable text_positions positions_;  // a cache: const members place errors too
  yaml_limits lim_;
  pack_node root_;
  std::vector<frame> stack_;
  std::map<YAML::anchor_t, pack_node> anchors_;
  std::size_t documents_ = 0;
  std::size_t nodes_ = 0;
};

}  // namespace detail

// Reads one YAML 1.2 document (JSON included) into a pack tree.
inline result<pack_node> read_yaml_pack(std::string_view text, const yaml_limits& lim) {
  if (!json::is_valid_utf8(text))
    return make_error(errc::invalid_utf8, "a pack must be UTF-8 text");
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    // The reference reads the mark as part of the first key; refused, as in JSON (SPEC §1).
    error e = make_error(errc::byte_order_mark, "a byte-order mark is not allowed at the start of a pack");
    e.offset = 0;
    e.line = e.column = 1;
    return e;
  }
  std::istringstream in{std::string(text)};
  detail::yaml_tree_builder b(text, lim);
  try {
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(b)) {
    }
  } catch (detail::yaml_failure& f) {
    return std::move(f.e);
  } catch (const YAML::Exception& x) {
    error e = make_error(errc::unexpected_character, "YAML: " + x.msg);
    detail::text_positions positions(text);
    if (const text_position p = detail::yaml_position(positions, x.mark); p.line != 0) {
      e.offset = p.offset;
      e.line = p.line;
      e.column = p.column;
    }
    return e;
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
