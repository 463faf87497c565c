// JSON Schema generated from types: the exact schema of every constraint type, named types under
// $defs, member annotations, and the root's $schema/$id/title.
#include "support.hpp"

#include "assay/json/canonical.hpp"
#include "assay/json/value.hpp"
#include "assay/reflect/constraints.hpp"
#include "assay/reflect/schema.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

template <class T>
struct one {
  T v;
};

// The canonical bytes of the schema of member v of one<T>.
template <class T>
std::string member_schema() {
  assay::reflect::schema_context ctx;
  auto s = assay::reflect::schema_value<T>(ctx);
  auto c = assay::json::to_canonical(s);
  REQUIRE(c.has_value());
  return *c;
}

std::string canonical(std::string_view text) {
  auto c = assay::json::canonicalize(text);
  REQUIRE_MESSAGE(c.has_value(), "bad JSON in test: " << text);
  return *c;
}

struct named {
  static constexpr std::string_view schema_name = "named";
  static constexpr std::string_view schema_description = "A named type.";
  int a;
};

struct uses_named {
  named first;
  std::vector<named> more;
  std::optional<std::map<std::string, named>> by_key{};
};

struct annotated {
  static constexpr std::string_view schema_id = "https://example.com/annotated.schema.json";
  static constexpr std::string_view schema_title = "Annotated";
  assay::const_string<"annotated-v1"> schema_version;
  std::optional<bool> flag{};
  std::string x_assay;
  static constexpr assay::field_info assay_fields[] = {
      {.field = "flag", .description = "A flag.", .default_json = "false"},
      {.field = "x_assay", .json_name = "x-assay", .description = "Namespaced."},
  };
};

struct recursive_ok {
  static constexpr std::string_view schema_name = "node";
  std::string name;
  std::vector<recursive_ok> children;
};

}  // namespace

TEST_CASE("schemas of scalar and constraint types") {
  CHECK(member_schema<bool>() == R"({"type":"boolean"})");
  CHECK(member_schema<int>() == R"({"type":"integer"})");
  CHECK(member_schema<std::uint64_t>() == R"({"type":"integer"})");
  CHECK(member_schema<double>() == R"({"type":"number"})");
  CHECK(member_schema<std::string>() == R"({"type":"string"})");
  CHECK(member_schema<assay::const_string<"v1">>() == R"({"const":"v1","type":"string"})");
  CHECK(member_schema<assay::one_of<"b", "a">>() == R"({"enum":["b","a"],"type":"string"})");
  CHECK(member_schema<assay::bounded<int, 1>>() == R"({"minimum":1,"type":"integer"})");
  CHECK(member_schema<assay::bounded<int, assay::no_minimum, 5>>() == R"({"maximum":5,"type":"integer"})");
  CHECK(member_schema<assay::bounded<double, 0, 1>>() == R"({"maximum":1,"minimum":0,"type":"number"})");
  CHECK(member_schema<assay::bounded<double, -3>>() == R"({"minimum":-3,"type":"number"})");
  CHECK(member_schema<assay::non_empty>() == R"({"minLength":1,"type":"string"})");
  CHECK(member_schema<assay::str<3, "^x">>() == R"({"minLength":3,"pattern":"^x","type":"string"})");
  CHECK(member_schema<assay::pattern<"^[a-z]+$">>() == R"({"pattern":"^[a-z]+$","type":"string"})");
  CHECK(member_schema<assay::date_time>() == R"({"format":"date-time","type":"string"})");
  CHECK(member_schema<std::vector<int>>() == R"({"items":{"type":"integer"},"type":"array"})");
  CHECK(member_schema<assay::list<int, 1>>() == R"({"items":{"type":"integer"},"minItems":1,"type":"array"})");
  CHECK(member_schema<assay::list<int, 0, 4>>() == R"({"items":{"type":"integer"},"maxItems":4,"type":"array"})");
  CHECK(member_schema<assay::unique_list<assay::non_empty>>() ==
        R"({"items":{"minLength":1,"type":"string"},"type":"array","uniqueItems":true})");
  CHECK(member_schema<assay::unique_list<int, 1, 3>>() ==
        R"({"items":{"type":"integer"},"maxItems":3,"minItems":1,"type":"array","uniqueItems":true})");
  CHECK(member_schema<assay::unique_list<named>>() ==
        R"({"items":{"$ref":"#/$defs/named"},"type":"array","uniqueItems":true})");
  CHECK(member_schema<std::array<double, 2>>() ==
        R"({"items":{"type":"number"},"maxItems":2,"minItems":2,"type":"array"})");
  CHECK(member_schema<std::map<std::string, assay::bounded<int, 1>>>() ==
        R"({"additionalProperties":{"minimum":1,"type":"integer"},"type":"object"})");
  CHECK(member_schema<assay::json::value>() == R"({})");
}

TEST_CASE("nullable: the type list gains null; enums gain null; other schemas are wrapped") {
  CHECK(member_schema<assay::nullable<assay::bounded<std::int64_t, 1>>>() ==
        R"({"minimum":1,"type":["integer","null"]})");
  CHECK(member_schema<assay::nullable<assay::one_of<"a", "b">>>() ==
        R"({"enum":["a","b",null],"type":["string","null"]})");
  CHECK(member_schema<assay::nullable<named>>() == R"({"anyOf":[{"$ref":"#/$defs/named"},{"type":"null"}]})");
  CHECK(member_schema<assay::nullable<assay::json::value>>() == R"({"anyOf":[{},{"type":"null"}]})");
}

TEST_CASE("structs: required, properties, additionalProperties false; named types under $defs") {
  struct plain {
    int a;
    std::optional<std::string> b{};
  };
  CHECK(member_schema<plain>() == canonical(R"({"type":"object","additionalProperties":false,"required":["a"],
                      "properties":{"a":{"type":"integer"},"b":{"type":"string"}}})"));
  struct all_optional {
    std::optional<int> a{};
  };
  // No "required" member when nothing is required.
  CHECK(member_schema<all_optional>() ==
        canonical(R"({"type":"object","additionalProperties":false,"properties":{"a":{"type":"integer"}}})"));

  auto s = assay::schema<uses_named>();
  auto c = assay::json::to_canonical(s);
  REQUIRE(c.has_value());
  CHECK(*c == canonical(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": false, "required": ["first", "more"],
    "properties": {
      "first": {"$ref": "#/$defs/named"},
      "more": {"type": "array", "items": {"$ref": "#/$defs/named"}},
      "by_key": {"type": "object", "additionalProperties": {"$ref": "#/$defs/named"}}
    },
    "$defs": {
      "named": {"type": "object", "additionalProperties": false, "required": ["a"],
                "properties": {"a": {"type": "integer"}}, "description": "A named type."}
    }
  })"));
}

TEST_CASE("root annotations and member annotations") {
  auto c = assay::json::to_canonical(assay::schema<annotated>());
  REQUIRE(c.has_value());
  CHECK(*c == canonical(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://example.com/annotated.schema.json",
    "title": "Annotated",
    "type": "object", "additionalProperties": false, "required": ["schema_version", "x-assay"],
    "properties": {
      "schema_version": {"type": "string", "const": "annotated-v1"},
      "flag": {"type": "boolean", "description": "A flag.", "default": false},
      "x-assay": {"type": "string", "description": "Namespaced."}
    }
  })"));
}

TEST_CASE("a recursive named type is defined once and referenced") {
  auto c = assay::json::to_canonical(assay::schema<recursive_ok>());
  REQUIRE(c.has_value());
  CHECK(*c == canonical(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": false, "required": ["name", "children"],
    "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
    "$defs": {"node": {"type": "object", "additionalProperties": false, "required": ["name", "children"],
              "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}
  })"));
}
