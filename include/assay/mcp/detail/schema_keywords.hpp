// assay/mcp/detail/schema_keywords.hpp — one subschema compiled: each keyword of its dialect
// checked for form and turned into a check (or kept as the annotation it is); any other keyword
// is an error that names it and where it is, never ignored.
#pragma once

#include "assay/mcp/detail/schema_compile.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace assay::mcp::detail {

inline result<void> schema_compiler::compile(const json::value& v, const location& at, std::uint32_t n) {
  schema_node node;
  node.resource = at.resource;
  if (v.is_bool()) {
    node.kind = v.as_bool() ? schema_node::always : schema_node::never;
    prog_->nodes[n] = std::move(node);
    return {};
  }
  if (!v.is_object())
    return fail(errc::invalid_argument, at, "a schema must be an object or a boolean");
  const bool d7 = at.dialect == schema_dialect::draft7;
  std::vector<check> list;
  check props{op::properties};
  bool has_props = false;
  check items{op::items};
  const json::value* items7 = nullptr;
  const json::value* additional_items = nullptr;
  location additional_at = at;
  check contains{op::contains};
  contains.count = 1;
  bool has_contains = false;
  std::size_t min_contains = 1, max_contains = unlimited;
  check cond{op::if_then_else};
  bool has_ref7 = false;
  check deps_required{op::dependent_required};
  check deps_schemas{op::dependent_schemas};

  for (const json::member& m : v.as_object()) {
    const std::string& k = m.name;
    const json::value& x = m.value;
    const std::string ptr = child_pointer(at.pointer, k);
    auto one = [&](std::uint32_t& into) -> result<void> {
      auto s = schema_at(x, at, ptr, k);
      if (!s)
        return s.error();
      into = *s;
      return {};
    };
    auto limit = [&](op o) -> result<void> {
      check c{o};
      if (!non_negative_integer(x, c.count))
        return malformed(at, k, "a non-negative integer");
      list.push_back(std::move(c));
      return {};
    };
    auto bound = [&](op o) -> result<void> {
      if (!x.is_number())
        return malformed(at, k, "a number");
      check c{o};
      c.number = x.as_number();
      list.push_back(std::move(c));
      return {};
    };
    result<void> r;
    // Annotations, and keywords the scan has read.
    if (k == "$schema" || k == "$id" || k == "default" || (!d7 && (k == "$anchor" || k == "$dynamicAnchor"))) {
    } else if (k == "$comment" || k == "title" || k == "description" || k == "format" || k == "contentEncoding" ||
               k == "contentMediaType") {
      if (!x.is_string())
        return malformed(at, k, "a string");
    } else if (k == "readOnly" || k == "writeOnly" || (!d7 && k == "deprecated")) {
      if (!x.is_bool())
        return malformed(at, k, "a boolean");
    } else if (k == "examples") {
      if (!x.is_array())
        return malformed(at, k, "an array");
    } else if (!d7 && k == "contentSchema") {
      if (!x.is_object() && !x.is_bool())
        return malformed(at, k, "a schema (an object or a boolean)");
    } else if (k == (d7 ? "definitions" : "$defs")) {
      if (!x.is_object())
        return malformed(at, k, "an object of schemas");
    } else if (!d7 && k == "$vocabulary") {
      if (!x.is_object())
        return malformed(at, k, "an object");
      static constexpr std::string_view known[] = {"core",      "applicator",        "unevaluated", "validation",
                                                   "meta-data", "format-annotation", "content"};
      for (const json::member& e : x.as_object()) {
        if (!e.value.is_bool())
          return malformed(at, k, "an object of booleans");
        const std::string_view prefix = "https://json-schema.org/draft/2020-12/vocab/";
        const std::string_view name = std::string_view(e.name).substr(0, prefix.size()) == prefix
                                          ? std::string_view(e.name).substr(prefix.size())
                                          : std::string_view();
        if (e.value.as_bool() && std::find(std::begin(known), std::end(known), name) == std::end(known))
          return fail(errc::unsupported, at,
                      "the vocabulary " + json::quote_for_message(e.name) + " is not implemented");
      }
    } else if (k == "$ref" || (!d7 && k == "$dynamicRef")) {
      if (!x.is_string())
        return malformed(at, k, "a string");
      auto t = resolve(at, k, x.as_string());
      if (!t)
        return t.error();
      check c{k == "$ref" ? op::ref : op::dynamic_ref};
      c.sub = t->node;
      if (k == "$dynamicRef" && t->dynamic_anchor) {
        c.dynamic = true;
        c.text = t->name;
        prog_->dynamic = true;
      }
      has_ref7 = d7;
      list.push_back(std::move(c));
    } else if (k == "type") {
      check c{op::type};
      auto bit = [](const json::value& t) -> std::uint32_t {
        if (!t.is_string())
          return 0;
        const std::string& s = t.as_string();
        return s == "null"      ? t_null
               : s == "boolean" ? t_boolean
               : s == "object"  ? t_object
               : s == "array"   ? t_array
               : s == "number"  ? t_number
               : s == "string"  ? t_string
               : s == "integer" ? t_integer
                                : 0;
      };
      if (x.is_array()) {
        for (const json::value& t : x.as_array()) {
          const std::uint32_t b = bit(t);
          if (b == 0 || (c.types & b) != 0)
            return malformed(at, k, "a type name or an array of distinct type names");
          c.types |= b;
        }
      } else if ((c.types = bit(x)) == 0) {
        return malformed(at, k, "a type name or an array of distinct type names");
      }
      list.push_back(std::move(c));
    } else if (k == "enum" || k == "const") {
      check c{k == "enum" ? op::enum_values : op::const_value};
      const json::array single{x};
      if (k == "enum" && !x.is_array())
        return malformed(at, k, "an array");
      for (const json::value& e : k == "enum" ? x.as_array() : single) {
        auto text = json::to_canonical(e);
        if (!text)
          return malformed(at, k, "JSON");
        c.names.push_back(std::move(*text));
      }
      std::sort(c.names.begin(), c.names.end());
      c.names.erase(std::unique(c.names.begin(), c.names.end()), c.names.end());
      list.push_back(std::move(c));
    } else if (k == "multipleOf") {
      if (!x.is_number() || !(x.as_number() > 0))
        return malformed(at, k, "a number greater than 0");
      r = bound(op::multiple_of);
    } else if (k == "maximum" || k == "exclusiveMaximum" || k == "minimum" || k == "exclusiveMinimum") {
      r = bound(k == "maximum"            ? op::maximum
                : k == "exclusiveMaximum" ? op::exclusive_maximum
                : k == "minimum"          ? op::minimum
                                          : op::exclusive_minimum);
    } else if (k == "maxLength" || k == "minLength" || k == "maxItems" || k == "minItems" || k == "maxProperties" ||
               k == "minProperties") {
      r = limit(k == "maxLength"       ? op::max_length
                : k == "minLength"     ? op::min_length
                : k == "maxItems"      ? op::max_items
                : k == "minItems"      ? op::min_items
                : k == "maxProperties" ? op::max_properties
                                       : op::min_properties);
    } else if (k == "pattern") {
      if (!x.is_string())
        return malformed(at, k, "a string");
      auto p = pattern_of(x, at, k, x.as_string());
      if (!p)
        return p.error();
      check c{op::pattern};
      c.pattern = *p;
      list.push_back(std::move(c));
    } else if (k == "uniqueItems") {
      if (!x.is_bool())
        return malformed(at, k, "a boolean");
      if (x.as_bool())
        list.push_back(check{op::unique_items});
    } else if (k == "required") {
      check c{op::required};
      if (!string_list(x, c.names))
        return malformed(at, k, "an array of distinct strings");
      list.push_back(std::move(c));
    } else if (!d7 && k == "dependentRequired") {
      if (!x.is_object())
        return malformed(at, k, "an object of arrays of strings");
      for (const json::member& e : x.as_object()) {
        std::vector<std::string> names;
        if (!string_list(e.value, names))
          return malformed(at, k, "an object of arrays of distinct strings");
        deps_required.dependencies.emplace_back(e.name, std::move(names));
      }
    } else if ((!d7 && k == "dependentSchemas") || (d7 && k == "dependencies")) {
      if (!x.is_object())
        return malformed(at, k, "an object");
      for (const json::member& e : x.as_object()) {
        std::vector<std::string> names;
        if (d7 && string_list(e.value, names)) {
          deps_required.dependencies.emplace_back(e.name, std::move(names));
          continue;
        }
        auto s = schema_at(e.value, at, child_pointer(ptr, e.name), k);
        if (!s)
          return s.error();
        deps_schemas.named.emplace_back(e.name, *s);
      }
    } else if (k == "allOf" || k == "anyOf" || k == "oneOf") {
      auto subs = schema_list(x, at, ptr, k, true);
      if (!subs)
        return subs.error();
      check c{k == "allOf" ? op::all_of : k == "anyOf" ? op::any_of : op::one_of};
      c.subs = std::move(*subs);
      list.push_back(std::move(c));
    } else if (k == "not") {
      check c{op::not_schema};
      r = one(c.sub);
      list.push_back(std::move(c));
    } else if (k == "if") {
      r = one(cond.sub);
    } else if (k == "then") {
      r = one(cond.sub2);
    } else if (k == "else") {
      r = one(cond.sub3);
    } else if (k == "properties") {
      auto named = schema_map(x, at, ptr, k);
      if (!named)
        return named.error();
      props.named = std::move(*named);
      has_props = true;
    } else if (k == "patternProperties") {
      if (!x.is_object())
        return malformed(at, k, "an object of schemas");
      for (const json::member& e : x.as_object()) {
        auto p = pattern_of(x, at, k, e.name);
        if (!p)
          return p.error();
        auto s = schema_at(e.value, at, child_pointer(ptr, e.name), k);
        if (!s)
          return s.error();
        props.patterned.emplace_back(*p, *s);
      }
      has_props = true;
    } else if (k == "additionalProperties") {
      r = one(props.sub);
      has_props = true;
    } else if (k == "propertyNames") {
      check c{op::property_names};
      r = one(c.sub);
      list.push_back(std::move(c));
    } else if (!d7 && k == "prefixItems") {
      auto subs = schema_list(x, at, ptr, k, true);
      if (!subs)
        return subs.error();
      items.subs = std::move(*subs);
    } else if (k == "items") {
      if (d7) {
        items7 = &x;
        if (x.is_array()) {
          auto subs = schema_list(x, at, ptr, k, false);
          if (!subs)
            return subs.error();
          items.subs = std::move(*subs);
        } else {
          r = one(items.sub);
        }
      } else {
        r = one(items.sub);
      }
    } else if (d7 && k == "additionalItems") {
      additional_items = &x;
      additional_at.pointer = ptr;
    } else if (k == "contains") {
      r = one(contains.sub);
      has_contains = true;
    } else if (!d7 && (k == "minContains" || k == "maxContains")) {
      std::size_t c = 0;
      if (!non_negative_integer(x, c))
        return malformed(at, k, "a non-negative integer");
      (k == "minContains" ? min_contains : max_contains) = c;
    } else if (!d7 && (k == "unevaluatedItems" || k == "unevaluatedProperties")) {
      check c{k == "unevaluatedItems" ? op::unevaluated_items : op::unevaluated_properties};
      r = one(c.sub);
      list.push_back(std::move(c));
      node.unevaluated = true;
    } else {
      return fail(errc::unsupported, at,
                  "the keyword " + json::quote_for_message(k) + " is not implemented (" +
                      (d7 ? "draft-07" : "draft 2020-12") + ")");
    }
    if (!r)
      return r;
  }
  if (has_props)
    list.push_back(std::move(props));
  if (d7 && items7 != nullptr && items7->is_array() && additional_items != nullptr) {
    auto s = schema_at(*additional_items, additional_at, additional_at.pointer, "additionalItems");
    if (!s)
      return s.error();
    items.sub = *s;
  } else if (d7 && additional_items != nullptr && !additional_items->is_object() && !additional_items->is_bool()) {
    return malformed(at, "additionalItems", "a schema (an object or a boolean)");
  }
  if (!items.subs.empty() || items.sub != no_node)
    list.push_back(std::move(items));
  if (has_contains) {
    contains.count = min_contains;
    contains.count2 = max_contains;
    list.push_back(std::move(contains));
  }
  if (cond.sub != no_node)
    list.push_back(std::move(cond));
  if (!deps_required.dependencies.empty())
    list.push_back(std::move(deps_required));
  if (!deps_schemas.named.empty())
    list.push_back(std::move(deps_schemas));
  if (has_ref7) {
    // draft-07: a $ref's siblings are not applied (they were read, and must be well-formed).
    list.erase(std::remove_if(list.begin(), list.end(), [](const check& c) { return c.kind != op::ref; }), list.end());
    node.unevaluated = false;
  }
  std::stable_sort(list.begin(), list.end(), [](const check& a, const check& b) { return a.kind < b.kind; });
  node.list = std::move(list);
  prog_->nodes[n] = std::move(node);
  return {};
}

}  // namespace assay::mcp::detail
