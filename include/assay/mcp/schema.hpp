// assay/mcp/schema.hpp — JSON Schema for the arguments of MCP tool calls: what the gate checks a
// tools/call's `params.arguments` against.
//
//   auto schema = assay::mcp::compile_schema(policy_schema);          // result<compiled_schema>
//   auto doc = assay::json::document::parse(line);                    // the client's line
//   std::size_t args = doc->find_member(doc->find_member(0, "params"), "arguments");
//   for (const auto& v : schema->validate(*doc, args))                // in place, no DOM built
//     std::printf("%s: %s\n", v.path.c_str(), v.message.c_str());
//
// Draft 2020-12 (MCP's default dialect), or draft-07 when the schema's `$schema` names it or
// the options say so for a schema that names none. References resolve within the schema (JSON
// Pointers, `$anchor`, `$dynamicRef`/`$dynamicAnchor`, embedded `$id`s) and to the meta-schemas
// of meta_schemas.hpp; any other is a compile error: nothing is ever fetched. So is every
// keyword this validator does not implement, with the keyword and where it is (the annotation
// keywords — title, description, default, examples, $comment, deprecated, readOnly, writeOnly,
// format, content* — are implemented as the annotations they are: `format` asserts nothing).
//
// The arguments are hostile, so validation is bounded: patterns are ECMA-262 over code points,
// matched by linear-time automata (reflect/ecma_pattern.hpp; what they cannot express goes to
// Boost.Regex, whose overrun of its limits is a violation); evaluation depth and the number of
// subschema applications are limited (schema_options); uniqueItems sorts canonical forms.
// Numbers compare as numbers: 1.0 equals 1 and is an integer, multipleOf is exact in the
// decimals the schema and the instance were written in. A message never quotes an argument's
// value, only schema text and member names, made printable and cut.
#pragma once

#include "assay/error.hpp"
#include "assay/json/canonical.hpp"
#include "assay/json/document.hpp"
#include "assay/json/value.hpp"
#include "assay/mcp/detail/schema_compile.hpp"
#include "assay/mcp/detail/schema_eval.hpp"
#include "assay/mcp/detail/schema_keywords.hpp"
#include "assay/mcp/schema_options.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace assay::mcp {

namespace detail {

// `v` as JSON text with its members in their order (canonical numbers and strings), without
// recursion; false when it holds what JSON cannot (a non-finite number, invalid UTF-8).
inline bool write_in_order(const json::value& v, std::string& out) {
  json::string_writer w{&out};
  struct level {
    const json::value* container;
    std::size_t next = 0;
  };
  std::vector<level> stack;
  const json::value* cur = &v;
  for (;;) {
    switch (cur->kind()) {
      case json::kind::null:
        out += "null";
        break;
      case json::kind::boolean:
        out += cur->as_bool() ? "true" : "false";
        break;
      case json::kind::number:
        if (!json::write_number(w, cur->as_number()))
          return false;
        break;
      case json::kind::string:
        if (!json::write_string(w, cur->as_string()))
          return false;
        break;
      case json::kind::array:
        out += '[';
        stack.push_back({cur});
        break;
      case json::kind::object:
        out += '{';
        stack.push_back({cur});
        break;
    }
    for (;;) {
      if (stack.empty())
        return true;
      level& l = stack.back();
      const bool array = l.container->is_array();
      const std::size_t n = array ? l.container->as_array().size() : l.container->as_object().size();
      if (l.next == n) {
        out += array ? ']' : '}';
        stack.pop_back();
        continue;
      }
      if (l.next != 0)
        out += ',';
      if (array) {
        cur = &l.container->as_array()[l.next++];
      } else {
        const json::member& m = l.container->as_object()[l.next++];
        if (!json::write_string(w, m.name))
          return false;
        out += ':';
        cur = &m.value;
      }
      break;
    }
  }
}

}  // namespace detail

class compiled_schema {
 public:
  // The violations of the value at node `at` of `doc` (the whole document by default), in a
  // deterministic order (the schema's checks in a fixed order, members and items as they come);
  // empty when it is valid. At most options.max_violations are listed.
  std::vector<schema_violation> validate(const json::document& doc, std::size_t at = 0) const {
    detail::evaluator e(*program_, doc, options_, true);
    e.run(at);
    return std::move(e.violations());
  }

  // Whether the value at node `at` is valid, without building a message.
  bool valid(const json::document& doc, std::size_t at = 0) const {
    detail::evaluator e(*program_, doc, options_, false);
    return e.run(at);
  }

  // The same for a DOM value (written as JSON, members in their order, and read back as a
  // document: for tests and callers that hold one).
  std::vector<schema_violation> validate(const json::value& v) const {
    std::string text;
    auto doc = as_document(v, text);
    if (!doc)
      return {{"", "is not JSON that can be validated"}};
    return validate(*doc);
  }
  bool valid(const json::value& v) const {
    std::string text;
    auto doc = as_document(v, text);
    return doc && valid(*doc);
  }

  // The number of subschemas compiled, meta-schemas included.
  std::size_t subschemas() const noexcept { return program_->nodes.size(); }

 private:
  friend result<compiled_schema> compile_schema(const json::value&, const schema_options&);
  compiled_schema(std::shared_ptr<const detail::program> p, const schema_options& o)
      : program_(std::move(p)), options_(o) {}

  static result<json::document> as_document(const json::value& v, std::string& text) {
    if (!detail::write_in_order(v, text))
      return make_error(errc::not_finite, "not JSON");
    json::limits lim;
    lim.max_depth = static_cast<std::size_t>(-1);
    lim.max_members = static_cast<std::size_t>(-1);
    lim.max_string_chars = static_cast<std::size_t>(-1);
    return json::document::parse(text, lim);
  }

  std::shared_ptr<const detail::program> program_;
  schema_options options_;
};

// `schema` compiled. An error says what is wrong and where: the keyword, and the subschema's
// JSON Pointer in the schema (error::pointer; in the message as `#/properties/path`).
inline result<compiled_schema> compile_schema(const json::value& schema, const schema_options& options = {}) {
  detail::schema_compiler c(options);
  auto p = c.run(schema);
  if (!p)
    return p.error();
  return compiled_schema(std::move(*p), options);
}

}  // namespace assay::mcp
