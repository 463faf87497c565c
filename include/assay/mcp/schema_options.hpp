// assay/mcp/schema_options.hpp — what compile_schema() takes and validate() reports (schema.hpp):
// the dialect a schema without `$schema` is read in, the bounds that keep a hostile schema or a
// hostile argument from costing more than they may, and one violation.
#pragma once

#include <cstddef>
#include <string>

namespace assay::mcp {

enum class schema_dialect { draft2020_12, draft7 };

struct schema_options {
  // The dialect of a schema whose `$schema` names none (MCP's default is 2020-12).
  schema_dialect default_dialect = schema_dialect::draft2020_12;
  // The schema: how deep its subschemas nest and how many there are, meta-schemas included.
  std::size_t max_depth = 64;
  std::size_t max_subschemas = 10000;
  // Each validation: the violations reported (the rest are counted in the verdict, not listed),
  // how deep evaluation may nest (subschemas applied within subschemas, references included),
  // and its budget of subschema applications: max_evaluations plus evaluations_per_value for
  // each value of the instance. Past either limit the instance is invalid, with a violation
  // saying why.
  std::size_t max_violations = 100;
  std::size_t max_eval_depth = 512;
  std::size_t max_evaluations = 1000000;
  std::size_t evaluations_per_value = 64;
};

// One reason an instance is invalid: where (the instance's JSON Pointer; member names made
// printable and cut, as every name in a message is) and what, in the validator's own words.
struct schema_violation {
  std::string path;
  std::string message;
  friend bool operator==(const schema_violation&, const schema_violation&) = default;
};

}  // namespace assay::mcp
