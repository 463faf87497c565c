// assay/mcp/detail/schema_compile.hpp — compile_schema()'s machinery: a scan of the schema
// document that finds every subschema, its base URI, dialect and schema resource, and indexes
// `$id`s and anchors; then each subschema compiled to checks, references resolved within the
// document and the meta-schemas of meta_schemas.hpp, and nothing else.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/pointer.hpp"
#include "assay/json/printable.hpp"
#include "assay/json/value.hpp"
#include "assay/mcp/detail/schema_program.hpp"
#include "assay/mcp/detail/uri.hpp"
#include "assay/mcp/meta_schemas.hpp"
#include "assay/mcp/schema_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace assay::mcp::detail {

inline constexpr std::string_view dialect_2020_12 = "https://json-schema.org/draft/2020-12/schema";
inline constexpr std::string_view dialect_7 = "http://json-schema.org/draft-07/schema";
// The base URI of a schema without `$id` (its references within itself need one).
inline constexpr std::string_view default_base = "urn:assay:schema";

// A `$schema` value as a dialect: false when it names another.
inline bool dialect_of(std::string_view uri, schema_dialect& out) {
  std::string u(uri);
  if (!u.empty() && u.back() == '#')
    u.pop_back();
  if (u == dialect_2020_12) {
    out = schema_dialect::draft2020_12;
    return true;
  }
  if (u == dialect_7 || u == "https://json-schema.org/draft-07/schema") {
    out = schema_dialect::draft7;
    return true;
  }
  return false;
}

class schema_compiler {
 public:
  explicit schema_compiler(const schema_options& o) : opt_(o) {}

  result<std::shared_ptr<const program>> run(const json::value& root) {
    prog_ = std::make_shared<program>();
    if (auto r = scan_document(root, std::string(default_base), opt_.default_dialect, 0); !r)
      return r.error();
    prog_->root = node_for(&root);
    if (auto r = drain(); !r)
      return r.error();
    return std::shared_ptr<const program>(std::move(prog_));
  }

 private:
  struct location {
    std::string base;  // absolute, without fragment
    schema_dialect dialect = schema_dialect::draft2020_12;
    std::uint32_t resource = 0;
    std::string pointer;  // in its document
    std::uint32_t doc = 0;
  };

  // --- errors --------------------------------------------------------------------------------

  std::string where(const location& at) const {
    const std::string doc = at.doc == 0 ? std::string() : docs_uri_[at.doc];
    return doc + "#" + json::printable(at.pointer, 200);
  }
  error fail(errc code, const location& at, std::string what) const {
    return make_error(code, what + " at " + where(at), at.doc == 0 ? at.pointer : std::string());
  }
  error malformed(const location& at, std::string_view keyword, std::string_view must) const {
    return fail(errc::invalid_argument, at, "\"" + std::string(keyword) + "\" must be " + std::string(must));
  }

  static std::string child_pointer(const std::string& p, std::string_view token) {
    return p + "/" + json::escape_pointer_token(token);
  }

  // --- the scan -------------------------------------------------------------------------------

  result<void> scan_document(const json::value& root, std::string base, schema_dialect d, std::uint32_t doc) {
    if (docs_uri_.size() <= doc)
      docs_uri_.resize(doc + 1);
    docs_uri_[doc] = doc == 0 ? std::string() : base;
    const auto r = new_resource(base, &root, location{base, d, 0, "", doc});
    if (!r)
      return r.error();
    return scan(root, location{base, d, *r, "", doc}, 0, true);
  }

  result<std::uint32_t> new_resource(const std::string& uri, const json::value* at, const location& loc) {
    auto [it, inserted] = resources_.try_emplace(uri, at);
    if (!inserted && it->second != at)
      return fail(errc::invalid_argument, loc, "the URI " + json::quote_for_message(uri) + " identifies two schemas");
    prog_->resources.push_back(resource_info{uri, {}});
    return static_cast<std::uint32_t>(prog_->resources.size() - 1);
  }

  result<void> add_anchor(const location& at, const std::string& name, const json::value* v, bool dynamic) {
    const std::string key = at.base + "#" + name;
    auto [it, inserted] = anchors_.try_emplace(key, v);
    if (!inserted && it->second != v)
      return fail(errc::invalid_argument, at, "the anchor " + json::quote_for_message(name) + " is defined twice");
    if (dynamic)
      dynamic_anchors_.push_back({at.resource, name, v});
    return {};
  }

  result<void> scan(const json::value& v, location at, std::size_t depth, bool document_root) {
    if (depth > opt_.max_depth)
      return fail(errc::depth_limit, at, "schema nested deeper than " + std::to_string(opt_.max_depth) + " levels");
    if (++scanned_ > opt_.max_subschemas)
      return fail(errc::size_limit, at, "more than " + std::to_string(opt_.max_subschemas) + " subschemas");
    if (!v.is_object()) {
      locations_.emplace(&v, at);
      order_.push_back(&v);
      return {};
    }
    const json::value* id = v.find("$id");
    const json::value* schema = v.find("$schema");
    if (schema != nullptr) {
      schema_dialect d{};
      if (!schema->is_string())
        return malformed(at, "$schema", "a string");
      if (!dialect_of(schema->as_string(), d))
        return fail(errc::unsupported, at,
                    "\"$schema\" names the dialect " + json::quote_for_message(schema->as_string()) +
                        ", not draft 2020-12 or draft-07");
      if (document_root || id != nullptr)
        at.dialect = d;
    }
    const bool d7 = at.dialect == schema_dialect::draft7;
    if (d7 && v.find("$ref") != nullptr)
      id = nullptr;  // draft-07: a $ref's siblings, $id included, are ignored
    if (id != nullptr) {
      if (!id->is_string())
        return malformed(at, "$id", "a string");
      auto [uri, fragment] = split_fragment(resolve_uri(at.base, id->as_string()));
      if (!d7 && !fragment.empty())
        return malformed(at, "$id", "a URI without a fragment");
      const bool fragment_only = !id->as_string().empty() && id->as_string().front() == '#';
      if (!fragment_only && (!document_root || uri != at.base)) {
        at.base = uri;
        const auto r = new_resource(uri, &v, at);
        if (!r)
          return r.error();
        at.resource = *r;
      } else if (document_root && !fragment_only) {
        prog_->resources[at.resource].uri = uri;
      }
      if (d7 && !fragment.empty())
        if (auto r = add_anchor(at, fragment, &v, false); !r)
          return r;
    }
    if (!d7) {
      for (const auto* kw : {"$anchor", "$dynamicAnchor"}) {
        if (const json::value* a = v.find(kw)) {
          if (!a->is_string() || !anchor_name(a->as_string()))
            return malformed(at, kw, "a plain name (a letter or '_', then letters, digits, '-', '_', '.')");
          if (auto r = add_anchor(at, a->as_string(), &v, kw[1] == 'd'); !r)
            return r;
        }
      }
    }
    locations_.emplace(&v, at);
    order_.push_back(&v);
    // The subschemas, by where the dialect puts them.
    static constexpr std::string_view maps20[] = {"$defs", "properties", "patternProperties", "dependentSchemas"};
    static constexpr std::string_view lists20[] = {"prefixItems", "allOf", "anyOf", "oneOf"};
    static constexpr std::string_view ones20[] = {
        "items", "contains", "additionalProperties", "propertyNames",        "if", "then",
        "else",  "not",      "unevaluatedItems",     "unevaluatedProperties"};
    static constexpr std::string_view maps7[] = {"definitions", "properties", "patternProperties", "dependencies"};
    static constexpr std::string_view lists7[] = {"items", "allOf", "anyOf", "oneOf"};
    static constexpr std::string_view ones7[] = {
        "items", "additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not"};
    auto is_schema = [](const json::value& x) { return x.is_object() || x.is_bool(); };
    for (const json::member& m : v.as_object()) {
      const std::string p = child_pointer(at.pointer, m.name);
      auto sub = [&](const json::value& x, std::string ptr) {
        location l = at;
        l.pointer = std::move(ptr);
        return scan(x, std::move(l), depth + 1, false);
      };
      const auto has = [&](auto& list) {
        return std::find(std::begin(list), std::end(list), m.name) != std::end(list);
      };
      if ((d7 ? has(maps7) : has(maps20)) && m.value.is_object()) {
        for (const json::member& e : m.value.as_object())
          if (is_schema(e.value))
            if (auto r = sub(e.value, child_pointer(p, e.name)); !r)
              return r;
      } else if ((d7 ? has(lists7) : has(lists20)) && m.value.is_array()) {
        for (std::size_t k = 0; k < m.value.as_array().size(); ++k)
          if (auto r = sub(m.value.as_array()[k], p + "/" + std::to_string(k)); !r)
            return r;
      } else if ((d7 ? has(ones7) : has(ones20)) && is_schema(m.value)) {
        if (auto r = sub(m.value, p); !r)
          return r;
      }
    }
    return {};
  }

  static bool anchor_name(std::string_view s) {
    if (s.empty() || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
      return false;
    for (const char c : s)
      if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
            c == '.'))
        return false;
    return true;
  }

  // --- nodes ----------------------------------------------------------------------------------

  // The node of the subschema at `v` (compiled by drain()); `fallback` is its location when the
  // scan did not see it (a JSON Pointer into a place that holds no subschema by its keyword).
  std::uint32_t node_for(const json::value* v, const location* fallback = nullptr) {
    if (auto it = node_of_.find(v); it != node_of_.end())
      return it->second;
    const auto n = static_cast<std::uint32_t>(prog_->nodes.size());
    prog_->nodes.emplace_back();
    node_of_.emplace(v, n);
    if (locations_.find(v) == locations_.end() && fallback != nullptr)
      locations_.emplace(v, *fallback);
    work_.push_back(v);
    return n;
  }

  result<void> drain() {
    for (; order_done_ < order_.size(); ++order_done_)
      node_for(order_[order_done_]);
    while (!work_.empty()) {
      const json::value* v = work_.back();
      work_.pop_back();
      if (prog_->nodes.size() > opt_.max_subschemas)
        return fail(errc::size_limit, locations_.at(v),
                    "more than " + std::to_string(opt_.max_subschemas) + " subschemas");
      if (auto r = compile(*v, locations_.at(v), node_of_.at(v)); !r)
        return r;
      // Documents loaded for a reference: their subschemas too.
      for (; order_done_ < order_.size(); ++order_done_)
        node_for(order_[order_done_]);
    }
    for (const auto& a : dynamic_anchors_)
      prog_->resources[a.resource].dynamic_anchors.emplace(a.name, node_of_.at(a.at));
    return {};
  }

  // --- references -----------------------------------------------------------------------------

  struct target {
    std::uint32_t node = no_node;
    bool dynamic_anchor = false;  // the fragment is a plain name that a $dynamicAnchor defines
    std::string name;             // that plain name
  };

  result<target> resolve(const location& at, std::string_view keyword, std::string_view ref) {
    const std::string absolute = resolve_uri(at.base, ref);
    auto [doc, fragment] = split_fragment(absolute);
    auto it = resources_.find(doc);
    if (it == resources_.end()) {
      if (const meta_schema* m = find_meta_schema(doc)) {
        auto parsed = json::parse(m->text);
        if (!parsed)
          return fail(errc::invalid_argument, at, "the meta-schema " + std::string(m->id) + " does not parse");
        loaded_.push_back(std::move(*parsed));
        schema_dialect d{};
        const json::value* s = loaded_.back().find("$schema");
        if (s == nullptr || !s->is_string() || !dialect_of(s->as_string(), d))
          d = schema_dialect::draft2020_12;
        if (auto r = scan_document(loaded_.back(), std::string(m->id), d, static_cast<std::uint32_t>(docs_uri_.size()));
            !r)
          return r.error();
        it = resources_.find(doc);
      }
      if (it == resources_.end())
        return fail(errc::unsupported, at,
                    "\"" + std::string(keyword) + "\" " + json::quote_for_message(ref) +
                        " names a document that is neither in the schema nor a known meta-schema (remote "
                        "documents are never fetched)");
    }
    const json::value* base = it->second;
    target t;
    if (fragment.empty()) {
      t.node = node_for(base);
      return t;
    }
    if (fragment.front() == '/') {
      std::string decoded;
      if (!percent_decode(fragment, decoded))
        return fail(errc::invalid_argument, at, "\"" + std::string(keyword) + "\" has a malformed %-escape");
      auto ptr = json::pointer::parse(decoded);
      const json::value* v = ptr ? json::find(*base, *ptr) : nullptr;
      if (v == nullptr)
        return fail(errc::invalid_argument, at,
                    "\"" + std::string(keyword) + "\" " + json::quote_for_message(ref) + " points to nothing");
      location l = locations_.at(base);
      l.pointer += decoded;
      t.node = node_for(v, &l);
      return t;
    }
    auto a = anchors_.find(doc + "#" + fragment);
    if (a == anchors_.end())
      return fail(errc::invalid_argument, at,
                  "\"" + std::string(keyword) + "\" " + json::quote_for_message(ref) + " names no anchor");
    t.node = node_for(a->second);
    const json::value* dyn = a->second->find("$dynamicAnchor");
    t.dynamic_anchor = dyn != nullptr && dyn->is_string() && dyn->as_string() == fragment;
    t.name = fragment;
    return t;
  }

  // --- compiling one subschema ----------------------------------------------------------------

  result<void> compile(const json::value& v, const location& at, std::uint32_t n);  // schema_keywords.hpp

  static bool non_negative_integer(const json::value& x, std::size_t& out) {
    if (!x.is_number() || x.as_number() < 0 || std::floor(x.as_number()) != x.as_number())
      return false;
    out = x.as_number() >= 1e18 ? unlimited - 1 : static_cast<std::size_t>(x.as_number());
    return true;
  }

  result<std::uint32_t> schema_at(const json::value& x, const location& at, const std::string& ptr,
                                  std::string_view keyword) {
    if (!x.is_object() && !x.is_bool())
      return malformed(at, keyword, "a schema (an object or a boolean)");
    location l = at;
    l.pointer = ptr;
    return node_for(&x, &l);
  }

  result<std::vector<std::uint32_t>> schema_list(const json::value& x, const location& at, const std::string& ptr,
                                                 std::string_view keyword, bool non_empty) {
    if (!x.is_array() || (non_empty && x.as_array().empty()))
      return malformed(at, keyword, non_empty ? "a non-empty array of schemas" : "an array of schemas");
    std::vector<std::uint32_t> out;
    for (std::size_t k = 0; k < x.as_array().size(); ++k) {
      auto s = schema_at(x.as_array()[k], at, ptr + "/" + std::to_string(k), keyword);
      if (!s)
        return s.error();
      out.push_back(*s);
    }
    return out;
  }

  result<std::vector<std::pair<std::string, std::uint32_t>>> schema_map(const json::value& x, const location& at,
                                                                        const std::string& ptr,
                                                                        std::string_view keyword) {
    if (!x.is_object())
      return malformed(at, keyword, "an object of schemas");
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (const json::member& m : x.as_object()) {
      auto s = schema_at(m.value, at, child_pointer(ptr, m.name), keyword);
      if (!s)
        return s.error();
      out.emplace_back(m.name, *s);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  static bool string_list(const json::value& x, std::vector<std::string>& out) {
    if (!x.is_array())
      return false;
    out.clear();
    for (const json::value& e : x.as_array()) {
      if (!e.is_string() || std::find(out.begin(), out.end(), e.as_string()) != out.end())
        return false;
      out.push_back(e.as_string());
    }
    return true;
  }

  result<std::size_t> pattern_of(const json::value& x, const location& at, std::string_view keyword,
                                 std::string_view text) {
    if (auto it = pattern_index_.find(std::string(text)); it != pattern_index_.end())
      return it->second;
    auto p = reflect::ecma_pattern::compile(text);
    if (!p)
      return fail(errc::unsupported, at, "\"" + std::string(keyword) + "\": " + p.error().message);
    (void)x;
    prog_->patterns.push_back(std::move(*p));
    pattern_index_.emplace(std::string(text), prog_->patterns.size() - 1);
    return prog_->patterns.size() - 1;
  }

  schema_options opt_;
  std::shared_ptr<program> prog_;
  std::map<std::string, const json::value*, std::less<>> resources_;  // URI -> its schema
  std::map<std::string, const json::value*, std::less<>> anchors_;    // URI#name -> schema
  struct dynamic_anchor {
    std::uint32_t resource;
    std::string name;
    const json::value* at;
  };
  std::vector<dynamic_anchor> dynamic_anchors_;
  std::unordered_map<const json::value*, location> locations_;
  std::unordered_map<const json::value*, std::uint32_t> node_of_;
  std::vector<const json::value*> order_;  // scanned subschemas, in order
  std::size_t order_done_ = 0;
  std::vector<const json::value*> work_;
  std::deque<json::value> loaded_;  // meta-schemas read for a reference
  std::vector<std::string> docs_uri_;
  std::map<std::string, std::size_t, std::less<>> pattern_index_;
  std::size_t scanned_ = 0;
};

}  // namespace assay::mcp::detail
