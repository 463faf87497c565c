// assay/mcp/detail/schema_program.hpp — a JSON Schema as compile_schema() leaves it: a vector of
// compiled subschemas, each a list of checks that name other subschemas by index; and the exact
// arithmetic that multipleOf needs.
#pragma once

#include "assay/reflect/ecma_pattern.hpp"

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace assay::mcp::detail {

inline constexpr std::uint32_t no_node = static_cast<std::uint32_t>(-1);
inline constexpr std::size_t unlimited = static_cast<std::size_t>(-1);

// The checks in the order a subschema applies them (the unevaluated ones last: they read what
// the others evaluated).
enum class op : std::uint8_t {
  type,
  const_value,
  enum_values,
  multiple_of,
  maximum,
  exclusive_maximum,
  minimum,
  exclusive_minimum,
  max_length,
  min_length,
  pattern,
  max_items,
  min_items,
  unique_items,
  max_properties,
  min_properties,
  required,
  dependent_required,
  ref,
  dynamic_ref,
  all_of,
  any_of,
  one_of,
  not_schema,
  if_then_else,
  dependent_schemas,
  properties,  // properties, patternProperties and additionalProperties together
  property_names,
  items,  // prefixItems and items (draft-07: items and additionalItems) together
  contains,
  unevaluated_items,
  unevaluated_properties,
};

// Bits of the type keyword.
inline constexpr std::uint32_t t_null = 1, t_boolean = 2, t_object = 4, t_array = 8, t_number = 16, t_string = 32,
                               t_integer = 64;

struct check {
  check() = default;
  explicit check(op k) : kind(k) {}

  op kind = op::type;
  std::uint32_t sub = no_node;   // ref, not, if, contains, additional/rest items, names, unevaluated
  std::uint32_t sub2 = no_node;  // then
  std::uint32_t sub3 = no_node;  // else
  std::uint32_t types = 0;
  double number = 0;
  std::size_t count = 0, count2 = unlimited;                     // limits; contains: min, max
  std::vector<std::uint32_t> subs;                               // allOf, anyOf, oneOf, prefixItems
  std::vector<std::pair<std::string, std::uint32_t>> named;      // properties, dependentSchemas (sorted)
  std::vector<std::pair<std::size_t, std::uint32_t>> patterned;  // patternProperties: pattern, subschema
  std::vector<std::string> names;                                // required; enum and const: canonical JSON
  std::vector<std::pair<std::string, std::vector<std::string>>> dependencies;  // dependentRequired
  std::size_t pattern = 0;                                                     // index into program::patterns
  std::string text;      // the keyword's value for messages; dynamicRef: the anchor's name
  bool dynamic = false;  // dynamicRef: its static target is a dynamic anchor of that name
};

struct schema_node {
  enum kind_t : std::uint8_t { always, never, checks } kind = checks;
  std::uint32_t resource = 0;  // the schema resource it belongs to (the dynamic scope)
  bool unevaluated = false;    // has an unevaluated* check: collects annotations
  std::vector<check> list;
};

struct resource_info {
  std::string uri;
  std::map<std::string, std::uint32_t, std::less<>> dynamic_anchors;  // name -> node
};

struct program {
  std::vector<schema_node> nodes;
  std::vector<resource_info> resources;
  std::vector<reflect::ecma_pattern> patterns;
  std::uint32_t root = 0;
  bool dynamic = false;  // some $dynamicRef resolves through the dynamic scope
};

// |v| as digits × 10^exponent, from its shortest round-trip decimal form (the number as written,
// for any number of up to 17 significant digits).
inline bool decimal_of(double v, std::uint64_t& digits, int& exponent) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
  if (r.ec != std::errc())
    return false;
  digits = 0;
  int fraction = 0;
  const char* p = buf;
  bool after_point = false;
  for (; p < r.ptr && *p != 'e'; ++p) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
    fraction += after_point ? 1 : 0;
  }
  int e = 0;
  if (p < r.ptr)
    std::from_chars(p + (p[1] == '+' ? 2 : 1), r.ptr, e);
  exponent = e - fraction;
  return true;
}

// Whether x is an integer multiple of m > 0, exactly, in the decimals the two were written in:
// 0.0075 is a multiple of 0.0001, 1e308 is not one of 0.123456789.
inline bool is_multiple_of(double x, double m) {
  if (x == 0)
    return true;
  if (!std::isfinite(x) || !std::isfinite(m) || m <= 0)
    return false;
  std::uint64_t a = 0, b = 0;
  int p = 0, q = 0;
  if (!decimal_of(x, a, p) || !decimal_of(m, b, q) || b == 0)
    return false;
  if (p >= q) {
    // a × 10^(p-q) mod b, one power of ten at a time (r < b < 10^18: r × 10 fits).
    std::uint64_t r = a % b;
    for (int k = 0; k < p - q && r != 0; ++k)
      r = r * 10 % b;
    return r == 0;
  }
  // a mod (b × 10^(q-p)): a must end in q-p zeros, and what is left be a multiple of b.
  const int k = q - p;
  if (k > 19)
    return false;
  std::uint64_t pow = 1;
  for (int j = 0; j < k; ++j)
    pow *= 10;
  return a % pow == 0 && (a / pow) % b == 0;
}

}  // namespace assay::mcp::detail
